-- Fence columns of every integer width and signedness, NOT NULL and
-- nullable: the generated writes must store every token the column holds
-- exactly and refuse every other token before sending anything
-- (testdata/fencegen/e2e/*/widths_test.go).

CREATE TABLE w_smallint (
    id    bigint PRIMARY KEY,
    body  text NOT NULL,
    fence smallint NOT NULL
);

CREATE TABLE w_smallint_null (
    id    bigint PRIMARY KEY,
    body  text NOT NULL,
    fence smallint
);

CREATE TABLE w_integer (
    id    bigint PRIMARY KEY,
    body  text NOT NULL,
    fence integer NOT NULL
);

CREATE TABLE w_integer_null (
    id    bigint PRIMARY KEY,
    body  text NOT NULL,
    fence integer
);

CREATE TABLE w_bigint (
    id    bigint PRIMARY KEY,
    body  text NOT NULL,
    fence bigint NOT NULL
);

CREATE TABLE w_bigint_null (
    id    bigint PRIMARY KEY,
    body  text NOT NULL,
    fence bigint
);
