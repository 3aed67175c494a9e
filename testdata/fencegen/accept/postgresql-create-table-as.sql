-- fenced: Doc, Archive
-- A table made by CREATE TABLE AS has the query's columns; a later ALTER
-- TABLE gives it a key and a fence.
CREATE TABLE docs (id bigint PRIMARY KEY, body text NOT NULL, fence bigint);
CREATE TABLE archive AS SELECT id, body AS text FROM docs;
ALTER TABLE archive ADD PRIMARY KEY (id);
ALTER TABLE archive ADD COLUMN fence bigint;
CREATE MATERIALIZED VIEW doc_ids AS SELECT id FROM docs;
