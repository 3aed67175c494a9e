CREATE TABLE weekly_reports (
	week       date NOT NULL,
	kind       smallint NOT NULL,
	body       text NOT NULL,
	PRIMARY KEY (week, kind)
);
