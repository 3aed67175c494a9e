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

-- Upserted counters: a NOT NULL fence, no AUTO_INCREMENT (many-row upserts).
CREATE TABLE counters (
  name VARCHAR(64) PRIMARY KEY,
  n BIGINT NOT NULL,
  fence BIGINT NOT NULL DEFAULT 0
);

-- Events numbered by AUTO_INCREMENT: upserted one row at a time.
CREATE TABLE events (
  id BIGINT AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(64) NOT NULL UNIQUE,
  seen BIGINT NOT NULL,
  fence BIGINT NULL
);

-- Drafts copied over docs by an upsert from a SELECT (CopyDrafts): the
-- same columns, a fence too, so the upsert's columns must be qualified.
CREATE TABLE drafts (
  id BIGINT PRIMARY KEY,
  owner VARCHAR(64) NOT NULL,
  title VARCHAR(255) NOT NULL,
  fence BIGINT NULL
);
