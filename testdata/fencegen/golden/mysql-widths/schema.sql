-- Fence columns of every integer width and signedness, NOT NULL and
-- nullable: the generated writes must store every token the column holds
-- exactly and refuse every other token before sending anything
-- (testdata/fencegen/e2e/*/widths_test.go).

CREATE TABLE w_tinyint (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence TINYINT NOT NULL
);

CREATE TABLE w_tinyint_null (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence TINYINT NULL
);

CREATE TABLE w_tinyint_unsigned (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence TINYINT UNSIGNED NOT NULL
);

CREATE TABLE w_tinyint_unsigned_null (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence TINYINT UNSIGNED NULL
);

CREATE TABLE w_smallint (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence SMALLINT NOT NULL
);

CREATE TABLE w_smallint_null (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence SMALLINT NULL
);

CREATE TABLE w_smallint_unsigned (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence SMALLINT UNSIGNED NOT NULL
);

CREATE TABLE w_smallint_unsigned_null (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence SMALLINT UNSIGNED NULL
);

CREATE TABLE w_mediumint (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence MEDIUMINT NOT NULL
);

CREATE TABLE w_mediumint_null (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence MEDIUMINT NULL
);

CREATE TABLE w_mediumint_unsigned (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence MEDIUMINT UNSIGNED NOT NULL
);

CREATE TABLE w_mediumint_unsigned_null (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence MEDIUMINT UNSIGNED NULL
);

CREATE TABLE w_int (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence INT NOT NULL
);

CREATE TABLE w_int_null (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence INT NULL
);

CREATE TABLE w_int_unsigned (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence INT UNSIGNED NOT NULL
);

CREATE TABLE w_int_unsigned_null (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence INT UNSIGNED NULL
);

CREATE TABLE w_bigint (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence BIGINT NOT NULL
);

CREATE TABLE w_bigint_null (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence BIGINT NULL
);

CREATE TABLE w_bigint_unsigned (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence BIGINT UNSIGNED NOT NULL
);

CREATE TABLE w_bigint_unsigned_null (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence BIGINT UNSIGNED NULL
);
