-- fenced: Doc, DocCopy
-- CREATE TABLE ... LIKE copies the columns, the primary key and unique indexes.
CREATE TABLE docs (id BIGINT PRIMARY KEY, body TEXT NOT NULL, fence BIGINT);
CREATE TABLE doc_copies LIKE docs;
