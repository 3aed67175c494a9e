// Package store writes jobs with sqlx named queries.
package store

import (
	"context"

	"github.com/jmoiron/sqlx"

	"upsertdefs/jobs"
)

type JobStore struct {
	db *sqlx.DB
}

func New(db *sqlx.DB) *JobStore { return &JobStore{db: db} }

// Upsert creates the job or updates it only if its definition changed.
func (s *JobStore) Upsert(ctx context.Context, job *jobs.Job) error {
	const q = `INSERT INTO jobs (job_uid, job_type, job_cron, job_max_secs, job_scheduled, job_data)
	VALUES (:job_uid, :job_type, :job_cron, :job_max_secs, :job_scheduled, :job_data)
	ON CONFLICT (job_uid) DO UPDATE SET job_type = :job_type, job_cron = :job_cron,
		job_max_secs = :job_max_secs, job_scheduled = :job_scheduled, job_data = :job_data
	WHERE jobs.job_type <> :job_type OR jobs.job_cron <> :job_cron OR jobs.job_max_secs <> :job_max_secs OR jobs.job_data <> :job_data`
	query, args, err := s.db.BindNamed(q, job)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, query, args...)
	return err
}

// Save overwrites the job whatever it holds.
func (s *JobStore) Save(ctx context.Context, job *jobs.Job) error {
	const q = `INSERT INTO jobs (job_uid, job_type, job_cron, job_max_secs, job_scheduled, job_data)
	VALUES (:job_uid, :job_type, :job_cron, :job_max_secs, :job_scheduled, :job_data)
	ON CONFLICT (job_uid) DO UPDATE SET job_type = :job_type, job_cron = :job_cron, job_data = :job_data`
	query, args, err := s.db.BindNamed(q, job)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, query, args...)
	return err
}

var _ jobs.Store = (*JobStore)(nil)
