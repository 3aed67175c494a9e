-- fenced: Path, Item
-- Extensions define types of other names than their own (ltree's lquery,
-- pgvector's vector, whose Go package pgvector-go is named pgvector).
CREATE EXTENSION IF NOT EXISTS ltree;
CREATE EXTENSION IF NOT EXISTS vector;
CREATE TABLE paths (id bigint PRIMARY KEY, path ltree NOT NULL, pattern lquery, fence bigint);
CREATE TABLE items (id bigserial PRIMARY KEY, embedding vector(3), fence bigint);
