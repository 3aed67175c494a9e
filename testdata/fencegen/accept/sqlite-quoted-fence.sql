-- fenced: Doc, Note
-- A fence column written [fence] or `fence`: sqlc keeps the brackets or
-- backticks in the column's name, and names a one-column result after it.
CREATE TABLE docs ([id] INTEGER PRIMARY KEY, [body] TEXT NOT NULL, [fence] INTEGER NOT NULL DEFAULT 0);
CREATE TABLE notes (`id` INTEGER PRIMARY KEY, `fence` INTEGER);
