-- fenced: Doc
-- ALTER TABLE IF EXISTS on a table that does not exist is a no-op.
ALTER TABLE IF EXISTS gone RENAME COLUMN a TO b;
ALTER TABLE IF EXISTS gone RENAME TO still_gone;
CREATE TABLE docs (id bigint PRIMARY KEY, fence bigint);
