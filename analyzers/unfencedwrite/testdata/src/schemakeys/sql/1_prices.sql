-- +goose Up
CREATE TABLE prices (
	chain_id	varchar(5)		NOT NULL,
	ts			datetime		NOT NULL,
	usd			double			NOT NULL,
	PRIMARY KEY (chain_id, ts)
);
-- +goose Down
DROP TABLE prices;
