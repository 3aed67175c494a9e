-- A primary key the database computes: an insert cannot set it, so the
-- table gets fenced Update and Delete but no Upsert (with a warning).
CREATE TABLE descriptions (
    tenant INTEGER NOT NULL,
    seq    INTEGER NOT NULL,
    id     INTEGER GENERATED ALWAYS AS (tenant * 1000000 + seq) STORED NOT NULL,
    body   TEXT    NOT NULL,
    fence  INTEGER,
    UNIQUE (id)
);

CREATE TABLE notes (
    id    INTEGER PRIMARY KEY,
    body  TEXT NOT NULL,
    fence INTEGER NOT NULL
);
