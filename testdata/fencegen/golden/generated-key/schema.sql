-- A primary key the database computes: an insert cannot set it, so the
-- table gets fenced Update and Delete but no Upsert (with a warning).
CREATE TABLE descriptions (
    tenant bigint NOT NULL,
    seq    bigint NOT NULL,
    id     bigint GENERATED ALWAYS AS (tenant * 1000000 + seq) STORED PRIMARY KEY,
    body   text   NOT NULL,
    fence  bigint
);

-- A unique key with a generated column, chosen when there is no primary key.
CREATE TABLE slugs (
    title text   NOT NULL,
    slug  text   NOT NULL GENERATED ALWAYS AS (lower(title)) STORED UNIQUE,
    fence bigint NOT NULL
);

-- A plain table beside them keeps its upsert.
CREATE TABLE notes (
    id    bigint PRIMARY KEY,
    body  text NOT NULL,
    fence bigint NOT NULL
);
