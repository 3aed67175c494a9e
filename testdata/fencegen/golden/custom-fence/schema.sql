-- Per-table fence columns, an identity key, unique keys, and the warnings.
CREATE TABLE jobs (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text   NOT NULL,
    lease_epoch bigint NOT NULL
);

-- Keyed by a unique constraint whose order (name, tenant) differs from the
-- column order; a 32-bit fence draws a warning.
CREATE TABLE counters (
    tenant        text    NOT NULL,
    name          text    NOT NULL,
    value         bigint  NOT NULL DEFAULT 0,
    fencing_token integer,
    UNIQUE (name, tenant)
);

-- No key: skipped with a warning.
CREATE TABLE events (id bigint, fence bigint);

-- Fenced only once a later migration adds the column.
CREATE TABLE plain (id bigint PRIMARY KEY, body text);

-- Views are never fenced.
CREATE VIEW job_names AS SELECT name FROM jobs;

COMMENT ON TABLE jobs IS 'work queue';
