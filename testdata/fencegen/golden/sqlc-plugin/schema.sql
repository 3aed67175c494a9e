-- Users' own queries fenced by fencegen (-queries): the schema.
CREATE TABLE docs (
  id bigint PRIMARY KEY,
  owner text NOT NULL,
  title text NOT NULL,
  body text,
  status text NOT NULL DEFAULT 'draft',
  fence bigint
);

-- No fence column: queries on it pass through.
CREATE TABLE tags (
  doc_id bigint NOT NULL,
  tag text NOT NULL,
  PRIMARY KEY (doc_id, tag)
);

CREATE TABLE counters (
  name text PRIMARY KEY,
  n bigint NOT NULL,
  fence bigint NOT NULL
);

-- A narrow fence: tokens past 2^31-1 are refused before anything is sent.
CREATE TABLE events (
  id bigint PRIMARY KEY,
  kind text NOT NULL,
  fence integer
);
