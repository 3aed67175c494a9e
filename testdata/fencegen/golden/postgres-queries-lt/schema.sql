-- Users' own queries fenced with compare "<" (each token writes a row once).
CREATE TABLE docs (
  id bigint PRIMARY KEY,
  title text NOT NULL,
  fence bigint
);

-- No fence column: the source of the upserts from a query.
CREATE TABLE drafts (
  id bigint PRIMARY KEY,
  title text NOT NULL
);
