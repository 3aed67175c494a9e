-- fenced: Event
-- ALTER TYPE ... RENAME TO: columns declared later name the new type.
CREATE TYPE kind AS ENUM ('start', 'stop');
ALTER TYPE kind RENAME TO event_kind;
CREATE TABLE events (id bigint PRIMARY KEY, kind event_kind NOT NULL, fence bigint);
