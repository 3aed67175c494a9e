CREATE TABLE docs (id bigint PRIMARY KEY, body text NOT NULL, fence bigint);
