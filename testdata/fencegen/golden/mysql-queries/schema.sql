-- Users' own queries fenced by fencegen (-queries) on MySQL: the schema.
CREATE TABLE docs (
  id BIGINT PRIMARY KEY,
  owner VARCHAR(64) NOT NULL,
  title VARCHAR(255) NOT NULL,
  status VARCHAR(16) NOT NULL DEFAULT 'draft',
  fence BIGINT NULL
);

-- No fence column: queries on it pass through.
CREATE TABLE tags (
  doc_id BIGINT NOT NULL,
  tag VARCHAR(64) NOT NULL,
  PRIMARY KEY (doc_id, tag)
);
