ALTER TABLE plain ADD COLUMN fence bigint;
