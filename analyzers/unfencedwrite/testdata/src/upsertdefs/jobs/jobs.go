// Package jobs declares the job row and the store interface of a job
// scheduler reduced from Harness's.
package jobs

import "context"

type Job struct {
	UID       string `db:"job_uid"`
	Type      string `db:"job_type"`
	Cron      string `db:"job_cron"`
	MaxSecs   int    `db:"job_max_secs"`
	Scheduled int64  `db:"job_scheduled"`
	Data      string `db:"job_data"`
}

type Store interface {
	Upsert(ctx context.Context, job *Job) error
	Save(ctx context.Context, job *Job) error
}
