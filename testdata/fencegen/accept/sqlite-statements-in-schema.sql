-- fenced: User
-- Data statements in a schema do not shape it; sqlc reads its own syntax
-- in them, which SQLite cannot prepare.
CREATE TABLE users (id integer PRIMARY KEY, name text NOT NULL, fence integer);
INSERT INTO users (id, name) VALUES (1, 'a');
INSERT INTO users (id, name) VALUES (1, 'duplicate key');
SELECT id FROM users WHERE id = sqlc.arg(id);
