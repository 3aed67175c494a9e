-- fenced: FooPath
-- A type in another schema does not clash with one of the same name in public.
CREATE SCHEMA foo;
CREATE TYPE point_type AS (x integer, y integer);
CREATE TYPE foo.point_type AS (x integer, y integer);
CREATE TABLE foo.paths (
    id bigint PRIMARY KEY,
    point_one point_type,
    point_two foo.point_type,
    fence bigint
);
