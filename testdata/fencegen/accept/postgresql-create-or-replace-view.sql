-- fenced: Doc
-- CREATE OR REPLACE VIEW replaces the view.
CREATE TABLE docs (id bigint PRIMARY KEY, body text, fence bigint);
CREATE VIEW bodies AS SELECT body FROM docs;
CREATE OR REPLACE VIEW bodies AS SELECT id, body FROM docs;
