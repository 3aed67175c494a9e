-- +goose Up
CREATE TABLE audit_log (ts timestamptz NOT NULL, what text NOT NULL) PARTITION BY RANGE (ts);
-- This month's partition, named at run time: it changes no table's keys.
DO $$
BEGIN
	EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF audit_log FOR VALUES FROM (%L) TO (%L)',
		'audit_log_' || to_char(now(), 'YYYYMM'), date_trunc('month', now()), date_trunc('month', now()) + interval '1 month');
END $$;
-- +goose Down
DROP TABLE audit_log;
