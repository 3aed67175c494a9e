-- name: GetDoc :one
SELECT * FROM docs WHERE id = ?;

-- name: SetDocTitle :exec
-- SetDocTitle renames a document.
UPDATE docs SET title = ? WHERE id = ?;

-- name: PublishOwnerDocs :execrows
UPDATE docs
SET status = 'published'
WHERE owner = @owner AND status = 'draft';

-- name: ArchiveDoc :one
UPDATE docs SET status = 'archived'
WHERE id = sqlc.arg(id)
RETURNING id, status, fence;

-- name: RemoveDoc :exec
DELETE FROM docs WHERE id = ?;

-- name: PurgeTagged :execrows
DELETE FROM docs
WHERE id IN (SELECT doc_id FROM tags WHERE tag = ?);

-- name: BumpCounter :one
INSERT INTO counters (name, n) VALUES (?, 1)
ON CONFLICT (name) DO UPDATE SET n = counters.n + 1
RETURNING n;

-- name: SetCounters :execrows
INSERT INTO counters (name, n) VALUES (@a, @a_n), (@b, @b_n)
ON CONFLICT (name) DO UPDATE SET n = excluded.n;

-- name: TagDoc :exec
INSERT INTO tags (doc_id, tag) VALUES (?, ?) ON CONFLICT DO NOTHING;

-- name: ResetDrafts :execrows
-- fencegen:unfenced run by the migration job before any worker starts
UPDATE docs SET status = 'draft';

-- name: CreateDoc :exec
INSERT INTO docs (id, owner, title) VALUES (?, ?, ?);

-- name: ReplaceTag :exec
INSERT OR REPLACE INTO tags (doc_id, tag) VALUES (?, ?);

-- name: SetCountersIfChanged :execrows
INSERT INTO counters AS c (name, n) VALUES (?, ?), (?, ?)
ON CONFLICT (name) DO UPDATE SET n = excluded.n WHERE c.n <> excluded.n;

-- name: TakeSlot :exec
UPDATE slots SET owner = ? WHERE shard = ? AND slot = ?;

-- name: FreeShard :execrows
DELETE FROM slots WHERE shard = @shard AND slot IN (SELECT doc_id FROM tags WHERE tag = @tag);

-- name: CountTags :execrows
INSERT INTO counters (name, n)
SELECT tag, count(*) FROM tags WHERE doc_id = ? GROUP BY tag
ON CONFLICT (name) DO UPDATE SET n = excluded.n;
