CREATE TABLE daily_reports (
	id         bigserial PRIMARY KEY,
	day        date NOT NULL,
	kind       smallint NOT NULL,
	body       text NOT NULL
);
CREATE UNIQUE INDEX daily_reports_day_kind ON daily_reports (day, kind);

CREATE TABLE report_runs (
	id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	day        date NOT NULL
);
