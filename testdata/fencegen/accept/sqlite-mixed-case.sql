-- fenced: User, Author, Book
-- sqlc folds bare SQLite names to lower case and keeps quoted ones: the
-- queries and Go names follow it.
CREATE TABLE Users (ID integer PRIMARY KEY, name text, "Email" text, Fence integer);
ALTER TABLE Users RENAME COLUMN name TO Full_Name;
ALTER TABLE Users RENAME COLUMN "Email" TO "EmailAddress";
CREATE TABLE "Authors" (id integer PRIMARY KEY, "Name" text, fence integer);
CREATE TABLE Books (Id integer PRIMARY KEY, Title text, fence integer);
