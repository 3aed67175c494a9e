-- fenced: User
-- warning: baz.users has fence column "fence" but is not fenced: sqlc cannot compile an UPDATE of a table in an attached database
-- A table of an attached database is no duplicate of main's; reading the
-- schema never opens the attached file.
ATTACH 'never-created.db' AS baz;
CREATE TABLE users (id integer PRIMARY KEY, name text NOT NULL, fence integer);
CREATE TABLE baz.users (id integer PRIMARY KEY, name text NOT NULL, fence integer);
