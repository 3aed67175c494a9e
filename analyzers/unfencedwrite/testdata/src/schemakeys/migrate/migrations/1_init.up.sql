CREATE TABLE rollups (
	chain_id	varchar(5)		NOT NULL,
	period		tinyint(1)		UNSIGNED NOT NULL DEFAULT 0,
	start_time	datetime		NOT NULL,
	end_time	datetime		NOT NULL,
	total		bigint			UNSIGNED NOT NULL,

	PRIMARY KEY (end_time, chain_id, period),
	INDEX idx_rollups_chain_id_period (chain_id, period)
);

CREATE TABLE totals (
	chain_id	varchar(5)		NOT NULL PRIMARY KEY,
	n			bigint			UNSIGNED NOT NULL
);

CREATE TABLE raw_blocks (
	id			bigint			UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
	chain_id	varchar(5)		NOT NULL,
	height		bigint			UNSIGNED NOT NULL
);

CREATE TABLE payouts (
	id			char(36)		NOT NULL PRIMARY KEY,
	miner_id	int				UNSIGNED NOT NULL,
	amount		bigint			NOT NULL
);

CREATE TABLE events (
	kind		varchar(8)		UNIQUE,
	at			datetime		NOT NULL
);

CREATE TABLE weird (
	chain_id	varchar(5)		NOT NULL PRIMARY KEY,
	v			int				NOT NULL
);

CREATE TABLE notes (
	kind		varchar(8)		UNIQUE,
	body		varchar(200)	NOT NULL
);
