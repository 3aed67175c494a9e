-- Schema for the MariaDB end-to-end tests of fencegen's generated code.
-- Each table exercises one thing the generated writes must get right.

-- The plain case: a NOT NULL fence, and a generated column that must never
-- be written.
CREATE TABLE docs (
    id       BIGINT NOT NULL PRIMARY KEY,
    body     VARCHAR(255) NOT NULL,
    body_len INT GENERATED ALWAYS AS (CHAR_LENGTH(body)) STORED,
    fence    BIGINT NOT NULL DEFAULT 0
);

-- A nullable fence: a row that was never fenced accepts the first write.
CREATE TABLE notes (
    id    BIGINT NOT NULL PRIMARY KEY,
    body  VARCHAR(255) NOT NULL,
    fence BIGINT NULL
);

-- Quoted and reserved names, and a composite key whose constraint order
-- (line, `order`) differs from the column order.
CREATE TABLE `OrderLine` (
    `order`  BIGINT NOT NULL,
    line     INT NOT NULL,
    `select` VARCHAR(255) NOT NULL,
    fence    BIGINT NULL,
    PRIMARY KEY (line, `order`)
);

CREATE TABLE settings (
    name  VARCHAR(64) NOT NULL PRIMARY KEY,
    value BIGINT NOT NULL,
    fence BIGINT NOT NULL DEFAULT 0
);
