-- fenced: Doc
-- +goose Up
-- Only the up half of a migration is applied: the down half's DROP is not.
CREATE TABLE docs (id bigint PRIMARY KEY, fence bigint);

-- +goose Down
DROP TABLE docs;
