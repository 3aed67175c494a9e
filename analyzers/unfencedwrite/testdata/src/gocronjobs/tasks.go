package gocronjobs

import (
	"database/sql"
	"time"

	"github.com/go-co-op/gocron/v2"
)

// A worker keeps the jobs it schedules as tasks, registered by the
// service that owns them, and schedules each under its elector: the task
// field holds work that runs on the leader alone.
type task struct {
	name     string
	interval time.Duration
	fn       func()
}

// A job feeds both schedulers: which of the values of its field run under
// the elector is not told, so none is taken for locked.
type job struct {
	interval time.Duration
	fn       func()
}

type worker struct {
	elector gocron.Elector
	tasks   []*task
	jobs    []*job
	plain   []*job
}

func (w *worker) addTask(t *task) { w.tasks = append(w.tasks, t) }

func (w *worker) addJob(j *job) { w.jobs = append(w.jobs, j) }

// addLocal registers a job that every replica runs, on a scheduler with
// no elector.
func (w *worker) addLocal(j *job) { w.plain = append(w.plain, j) }

func (w *worker) start() error {
	s, err := gocron.NewScheduler(gocron.WithDistributedElector(w.elector))
	if err != nil {
		return err
	}
	for _, t := range w.tasks {
		if _, err := s.NewJob(gocron.DurationJob(t.interval), gocron.NewTask(t.fn), gocron.WithName(t.name)); err != nil {
			return err
		}
	}
	for _, j := range w.jobs {
		if _, err := s.NewJob(gocron.DurationJob(j.interval), gocron.NewTask(j.fn)); err != nil {
			return err
		}
	}
	s.Start()
	return nil
}

func (w *worker) startLocal() error {
	s, err := gocron.NewScheduler()
	if err != nil {
		return err
	}
	for _, j := range w.plain {
		if _, err := s.NewJob(gocron.DurationJob(j.interval), gocron.NewTask(j.fn)); err != nil {
			return err
		}
	}
	s.Start()
	return nil
}

type sessions struct{ db *sql.DB }

// expire runs on the leader only.
func (s *sessions) expire() {
	s.db.Exec(`UPDATE sessions SET state = 'expired' WHERE seen_at < now() - interval '1 hour'`) // want `DB.Exec \(UPDATE sessions\) writes to SQL database without a fencing token while the gocron job's distributed lock`
}

// close runs on the leader, through a job: missed.
func (s *sessions) close() {
	s.db.Exec(`UPDATE sessions SET state = 'closed' WHERE state = 'expired'`)
}

// sweepLocal runs on every replica, under no lock.
func (s *sessions) sweepLocal() {
	s.db.Exec(`DELETE FROM local_cache WHERE stale`)
}

func register(w *worker, s *sessions) {
	w.addTask(&task{name: "expire", interval: time.Minute, fn: s.expire})
	w.addJob(&job{interval: time.Minute, fn: s.close})
	w.addLocal(&job{interval: time.Minute, fn: s.sweepLocal})
}
