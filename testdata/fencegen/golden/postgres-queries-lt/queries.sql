-- name: CopyDraft :one
-- CopyDraft copies drafts over docs and returns the first row written.
-- Under "<" a SELECT that gives several rows has all but one of those
-- written reported stale (docs/fencegen.md): use :many for those.
INSERT INTO docs (id, title)
SELECT d.id, d.title FROM drafts d WHERE d.id = ANY(@ids::bigint[]) ORDER BY d.id
ON CONFLICT (id) DO UPDATE SET title = excluded.title
RETURNING *;

-- name: CopyDrafts :many
INSERT INTO docs (id, title)
SELECT d.id, d.title FROM drafts d WHERE d.id = ANY(@ids::bigint[]) ORDER BY d.id
ON CONFLICT (id) DO UPDATE SET title = excluded.title
RETURNING *;
