-- A down migration: not part of the schema (if it were, prices would be gone).
DROP TABLE prices;
