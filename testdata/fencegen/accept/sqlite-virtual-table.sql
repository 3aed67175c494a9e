-- fenced: Tbl
-- A virtual table's shadow tables (fts5's tbl_ft_data, ...) are not the
-- user's: sqlc does not know them.
CREATE TABLE tbl (a INTEGER PRIMARY KEY, b TEXT, fence INTEGER);
CREATE VIRTUAL TABLE tbl_ft USING fts5(b, content='tbl', content_rowid='a');
