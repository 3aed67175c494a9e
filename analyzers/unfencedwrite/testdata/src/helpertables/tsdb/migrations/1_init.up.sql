CREATE TABLE blocks (
	chain_id	varchar(5)		NOT NULL,
	period		tinyint(1)		UNSIGNED NOT NULL,
	end_time	datetime		NOT NULL,
	value		double			NOT NULL,
	count		int				UNSIGNED NOT NULL,

	PRIMARY KEY (end_time, chain_id, period)
);

CREATE TABLE raw_blocks (
	id			bigint			UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
	chain_id	varchar(5)		NOT NULL,
	height		bigint			UNSIGNED NOT NULL
);

CREATE TABLE audit (
	id			bigint			UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
	note		varchar(200)	NOT NULL
);
