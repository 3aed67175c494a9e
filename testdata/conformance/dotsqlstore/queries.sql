-- name: lease-job
SELECT pg_try_advisory_lock($1);

-- name: unlease-job
SELECT pg_advisory_unlock($1);

-- name: finish-job
UPDATE jobs SET state = 'done' WHERE id = $1;

-- name: finish-job-fenced
UPDATE jobs SET state = 'done', fence = $2 WHERE id = $1 AND fence < $2;
