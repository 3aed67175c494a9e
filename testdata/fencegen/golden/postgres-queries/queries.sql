-- name: GetDoc :one
SELECT * FROM docs WHERE id = $1;

-- name: SetDocTitle :exec
-- SetDocTitle renames a document.
UPDATE docs SET title = $2 WHERE id = $1;

-- name: PublishOwnerDocs :execrows
UPDATE docs
SET status = 'published'
WHERE owner = @owner AND status = 'draft';

-- name: ArchiveDoc :one
UPDATE docs AS d SET status = 'archived'
WHERE d.id = sqlc.arg(id)
RETURNING d.id, d.status, d.fence;

-- name: RetitleFromTag :many
UPDATE docs SET title = t.tag
FROM tags t
WHERE t.doc_id = docs.id AND t.tag = $1
RETURNING docs.*;

-- name: RemoveDoc :exec
DELETE FROM docs WHERE id = $1;

-- name: PurgeTagged :execrows
DELETE FROM docs USING tags
WHERE tags.doc_id = docs.id AND tags.tag = @tag;

-- name: BumpCounter :one
INSERT INTO counters (name, n) VALUES ($1, 1)
ON CONFLICT (name) DO UPDATE SET n = counters.n + 1
RETURNING n;

-- name: SetCounters :execrows
INSERT INTO counters (name, n) VALUES (@a, @a_n), (@b, @b_n)
ON CONFLICT (name) DO UPDATE SET n = excluded.n;

-- name: SetCounter :exec
INSERT INTO counters AS c (name, n) VALUES (@name, @n)
ON CONFLICT (name) DO UPDATE SET n = excluded.n WHERE c.n <> excluded.n;

-- name: TagDoc :exec
INSERT INTO tags (doc_id, tag) VALUES ($1, $2) ON CONFLICT DO NOTHING;

-- name: ResetDrafts :execrows
-- fencegen:unfenced run by the migration job before any worker starts
UPDATE docs SET status = 'draft';

-- name: CreateDoc :exec
INSERT INTO docs (id, owner, title) VALUES ($1, $2, $3);

-- name: RenameEvent :exec
UPDATE events SET kind = $2 WHERE id = $1;

-- name: RaiseCounter :one
INSERT INTO counters (name, n) VALUES ($1, $2)
ON CONFLICT (name) DO UPDATE SET n = excluded.n WHERE counters.n < excluded.n
RETURNING n;

-- name: CountTags :execrows
INSERT INTO counters (name, n)
SELECT tags.tag, count(*) FROM tags WHERE tags.doc_id = $1 GROUP BY tags.tag
ON CONFLICT (name) DO UPDATE SET n = excluded.n;

-- name: ResetCounters :many
WITH wanted AS (SELECT unnest(@names::text[]) AS name)
INSERT INTO counters AS c (name, n)
SELECT name, 0 FROM wanted
ON CONFLICT (name) DO UPDATE SET n = 0 WHERE c.n <> 0
RETURNING c.name;
