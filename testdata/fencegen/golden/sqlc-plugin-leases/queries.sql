-- name: SetDocTitle :exec
UPDATE docs SET title = $2 WHERE id = $1;
