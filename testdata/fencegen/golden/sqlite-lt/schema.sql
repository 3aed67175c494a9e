-- Schema for the SQLite end-to-end tests of fencegen's generated code.
-- Each table exercises one thing the generated writes must get right.

-- The plain case: a NOT NULL fence, and a generated column that must never
-- be written.
CREATE TABLE docs (
    id       INTEGER NOT NULL PRIMARY KEY,
    body     TEXT NOT NULL,
    body_len INTEGER GENERATED ALWAYS AS (length(body)) STORED,
    fence    INTEGER NOT NULL DEFAULT 0
);

-- A nullable fence: a row that was never fenced accepts the first write.
CREATE TABLE notes (
    id    INTEGER NOT NULL PRIMARY KEY,
    body  TEXT NOT NULL,
    fence INTEGER
);

-- Quoted and reserved names, and a composite key whose constraint order
-- (line, "order") differs from the column order.
CREATE TABLE "OrderLine" (
    "order"  INTEGER NOT NULL,
    line     INTEGER NOT NULL,
    "select" TEXT NOT NULL,
    fence    INTEGER,
    PRIMARY KEY (line, "order")
);

CREATE TABLE settings (
    name  TEXT NOT NULL PRIMARY KEY,
    value INTEGER NOT NULL,
    fence INTEGER NOT NULL DEFAULT 0
);

-- [Bracketed] and `backtick` names, which sqlc's SQLite catalog keeps
-- spelled as written.
CREATE TABLE [Quoted Docs] (
    [doc id]   INTEGER NOT NULL PRIMARY KEY,
    `the body` TEXT NOT NULL,
    fence      INTEGER
);
