-- Schema for the PostgreSQL end-to-end tests of fencegen's generated code.
-- Each table exercises one thing the generated writes must get right.

CREATE SCHEMA app;

-- The plain case: a NOT NULL fence, and a generated column that must never
-- be written.
CREATE TABLE docs (
    id       bigint PRIMARY KEY,
    body     text   NOT NULL,
    body_len integer GENERATED ALWAYS AS (length(body)) STORED,
    fence    bigint NOT NULL DEFAULT 0
);

-- A nullable fence: a row that was never fenced accepts the first write.
CREATE TABLE notes (
    id    bigint PRIMARY KEY,
    body  text   NOT NULL,
    fence bigint
);

-- Quoted and reserved names, and a composite key whose constraint order
-- (line, "order") differs from the column order.
CREATE TABLE "OrderLine" (
    "order"  bigint  NOT NULL,
    line     integer NOT NULL,
    "select" text    NOT NULL,
    fence    bigint,
    PRIMARY KEY (line, "order")
);

-- Two tables named settings, in two schemas, with different value types.
CREATE TABLE public.settings (
    name  text   PRIMARY KEY,
    value text   NOT NULL,
    fence bigint NOT NULL DEFAULT 0
);

CREATE TABLE app.settings (
    name  text   PRIMARY KEY,
    value bigint NOT NULL,
    fence bigint NOT NULL DEFAULT 0
);
