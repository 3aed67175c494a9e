-- name: GetDoc :one
SELECT * FROM docs WHERE id = ?;

-- name: SetDocTitle :exec
-- SetDocTitle renames a document.
UPDATE docs SET title = ? WHERE id = ?;

-- name: PublishOwnerDocs :execrows
UPDATE docs
SET status = 'published'
WHERE owner = sqlc.arg(owner) AND status = 'draft';

-- name: RetitleFirst :execrows
UPDATE LOW_PRIORITY `docs` AS d SET d.title = ? WHERE d.owner = ? ORDER BY d.id LIMIT 1;

-- name: RemoveDoc :exec
DELETE FROM docs WHERE id = ?;

-- name: PurgeOwner :execrows
DELETE FROM docs WHERE owner = ? AND title <> 'it\'s # not a comment';

-- name: TagDoc :exec
INSERT INTO tags (doc_id, tag) VALUES (?, ?) ON DUPLICATE KEY UPDATE tag = VALUES(tag);

-- name: ResetDrafts :execrows
-- fencegen:unfenced run by the migration job before any worker starts
UPDATE docs SET status = 'draft';

-- name: CreateDoc :exec
INSERT INTO docs (id, owner, title) VALUES (?, ?, ?);

-- name: SaveDoc :exec
-- SaveDoc creates a document or retitles it, back to draft.
INSERT INTO docs (id, owner, title) VALUES (?, ?, ?)
ON DUPLICATE KEY UPDATE title = VALUES(title), `status` = 'draft';

-- name: BumpCounters :execrows
INSERT INTO counters (name, n) VALUES (?, 1), (sqlc.arg(other), 1)
ON DUPLICATE KEY UPDATE n = n + 1;

-- name: SeeEvent :exec
INSERT INTO events SET name = ?, seen = 1 ON DUPLICATE KEY UPDATE seen = seen + 1;

-- name: CopyDrafts :exec
-- CopyDrafts publishes an owner's drafts over the documents of their ids.
INSERT INTO docs (id, owner, title)
SELECT d.id, d.owner, d.title FROM drafts d WHERE d.owner = ? ORDER BY d.id
ON DUPLICATE KEY UPDATE title = VALUES(title), status = 'draft';
