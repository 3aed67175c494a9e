-- Applied after 2_weird (10 > 2, not as text): notes.kind becomes NOT NULL,
-- so its unique key stops a second row.
ALTER TABLE notes MODIFY kind varchar(8) NOT NULL UNIQUE;
