CREATE TABLE docs (
  id bigint PRIMARY KEY,
  title text NOT NULL,
  fence bigint
);
