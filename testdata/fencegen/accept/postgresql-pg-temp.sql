-- fenced: Job
-- pg_temp, the session's temporary schema, always exists.
CREATE TABLE jobs (id bigint PRIMARY KEY, fence bigint);
CREATE TABLE pg_temp.migrate (val serial);
INSERT INTO jobs (id) SELECT val FROM pg_temp.migrate;
