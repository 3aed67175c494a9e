-- Users' own queries fenced by fencegen (-queries) on SQLite: the schema.
CREATE TABLE docs (
  id INTEGER PRIMARY KEY,
  owner TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT,
  status TEXT NOT NULL DEFAULT 'draft',
  fence INTEGER
);

-- No fence column: queries on it pass through.
CREATE TABLE tags (
  doc_id INTEGER NOT NULL,
  tag TEXT NOT NULL,
  PRIMARY KEY (doc_id, tag)
);

CREATE TABLE counters (
  name TEXT PRIMARY KEY,
  n INTEGER NOT NULL,
  fence INTEGER NOT NULL
);

-- WITHOUT ROWID: the check counts rows by their primary key.
CREATE TABLE slots (
  shard TEXT NOT NULL,
  slot INTEGER NOT NULL,
  owner TEXT NOT NULL,
  fence INTEGER,
  PRIMARY KEY (shard, slot)
) WITHOUT ROWID;
