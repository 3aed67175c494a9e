-- Fence columns of every integer width and signedness, NOT NULL and
-- nullable: the generated writes must store every token the column holds
-- exactly and refuse every other token before sending anything
-- (testdata/fencegen/e2e/*/widths_test.go).

CREATE TABLE w_tinyint (
    id    INTEGER NOT NULL PRIMARY KEY,
    body  TEXT NOT NULL,
    fence TINYINT NOT NULL
);

CREATE TABLE w_tinyint_null (
    id    INTEGER NOT NULL PRIMARY KEY,
    body  TEXT NOT NULL,
    fence TINYINT
);

CREATE TABLE w_smallint (
    id    INTEGER NOT NULL PRIMARY KEY,
    body  TEXT NOT NULL,
    fence SMALLINT NOT NULL
);

CREATE TABLE w_smallint_null (
    id    INTEGER NOT NULL PRIMARY KEY,
    body  TEXT NOT NULL,
    fence SMALLINT
);

CREATE TABLE w_mediumint (
    id    INTEGER NOT NULL PRIMARY KEY,
    body  TEXT NOT NULL,
    fence MEDIUMINT NOT NULL
);

CREATE TABLE w_mediumint_null (
    id    INTEGER NOT NULL PRIMARY KEY,
    body  TEXT NOT NULL,
    fence MEDIUMINT
);

CREATE TABLE w_int (
    id    INTEGER NOT NULL PRIMARY KEY,
    body  TEXT NOT NULL,
    fence INT NOT NULL
);

CREATE TABLE w_int_null (
    id    INTEGER NOT NULL PRIMARY KEY,
    body  TEXT NOT NULL,
    fence INT
);

CREATE TABLE w_integer (
    id    INTEGER NOT NULL PRIMARY KEY,
    body  TEXT NOT NULL,
    fence INTEGER NOT NULL
);

CREATE TABLE w_integer_null (
    id    INTEGER NOT NULL PRIMARY KEY,
    body  TEXT NOT NULL,
    fence INTEGER
);

CREATE TABLE w_bigint (
    id    INTEGER NOT NULL PRIMARY KEY,
    body  TEXT NOT NULL,
    fence BIGINT NOT NULL
);

CREATE TABLE w_bigint_null (
    id    INTEGER NOT NULL PRIMARY KEY,
    body  TEXT NOT NULL,
    fence BIGINT
);

CREATE TABLE w_unsigned_big_int (
    id    INTEGER NOT NULL PRIMARY KEY,
    body  TEXT NOT NULL,
    fence UNSIGNED BIG INT NOT NULL
);

CREATE TABLE w_unsigned_big_int_null (
    id    INTEGER NOT NULL PRIMARY KEY,
    body  TEXT NOT NULL,
    fence UNSIGNED BIG INT
);
