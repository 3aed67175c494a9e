-- fenced: Doc, DocCopy
-- CREATE TABLE (LIKE src INCLUDING ALL) copies the columns and the keys.
CREATE TABLE docs (id bigint PRIMARY KEY, body text NOT NULL, fence bigint);
CREATE TABLE doc_copies (LIKE docs INCLUDING ALL);
