-- +goose Up
CREATE TABLE lifecycles (
	id         bigserial PRIMARY KEY,
	started_at timestamptz NOT NULL,
	ended_at   timestamptz,
	reason     text NOT NULL
);
-- At most one live lifecycle: the leader's insert of a second one fails.
CREATE UNIQUE INDEX lifecycles_live ON lifecycles ((TRUE)) WHERE ended_at IS NULL;

CREATE TABLE billing_runs (
	id         bigserial PRIMARY KEY,
	period     integer NOT NULL,
	region     smallint NOT NULL,
	status     varchar(10) NOT NULL,
	deleted_at timestamptz
);
-- One run per period and region among those not deleted.
CREATE UNIQUE INDEX billing_runs_live ON billing_runs (period, region) WHERE deleted_at IS NULL;

CREATE TABLE invoices (
	id          bigserial PRIMARY KEY,
	period      integer NOT NULL,
	archived_at timestamptz DEFAULT now()
);
-- Every row gets archived_at from its DEFAULT: the index covers none of
-- the rows an INSERT that leaves it out adds.
CREATE UNIQUE INDEX invoices_open ON invoices (period) WHERE archived_at IS NULL;
-- +goose Down
DROP TABLE invoices;
DROP TABLE billing_runs;
DROP TABLE lifecycles;
