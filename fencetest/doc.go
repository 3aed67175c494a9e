// Package fencetest runs the frozen-worker scenario against your own lock
// service and store, and tells you whether your store accepted a stale write.
//
// The scenario, with two copies of your worker running as separate OS
// processes (re-executions of the test binary):
//
//  1. worker A takes the lease and calls [Worker.Acquired];
//  2. the harness stops A with SIGSTOP, a real stop like a long GC pause or
//     CPU throttling: nothing in A runs, not even its lease renewal;
//  3. worker B takes the lease once it has expired, and writes;
//  4. once B is done and A has been stopped for at least [Options.Pause], the
//     harness resumes A with SIGCONT and A goes on to write.
//
// If the store applies A's write, B's write is lost: A returns nil, or
// [Options.Winner] finds A's write in the store. A fenced store refuses A's
// write, and A returns an error that [Job.IsStale] recognises.
//
// Register the worker at package level, hand the test binary to [Main] in
// TestMain (in a command, call [ServeWorker] first thing in main), and call
// [AssertFenced] or [Run] from a test:
//
//	var reportJob = fencetest.Register(fencetest.Job{
//		Name: "report",
//		Work: func(ctx context.Context, w *fencetest.Worker) error {
//			cli, err := clientv3.New(clientv3.Config{Endpoints: []string{os.Getenv("ETCD")}})
//			...
//			m := concurrency.NewMutex(session, "/locks/report")
//			if err := m.Lock(ctx); err != nil {
//				return err
//			}
//			token := m.Header().Revision
//			w.Acquired(token) // worker A is frozen here
//			return db.NewFenced(pool).UpdateReport(ctx, db.TokenOf(token), params(w.Name()))
//		},
//		IsStale: func(err error) bool { return errors.Is(err, db.ErrStale) },
//	})
//
//	func TestMain(m *testing.M) { fencetest.Main(m) }
//
//	func TestReportIsFenced(t *testing.T) {
//		fencetest.AssertFenced(t, reportJob, fencetest.Options{
//			Pause: 3 * time.Second, // longer than the session's TTL
//			Env:   []string{"ETCD=" + etcdURL, "DSN=" + dsn},
//		})
//	}
//
// The workers are fresh processes: they learn where the lock service and the
// store are from [Options.Env], not from the test's variables.
//
// fencetest needs a Unix system (SIGSTOP and SIGCONT); on Linux it also
// checks that A is really stopped before B starts, and the workers die with
// the process that started them.
package fencetest
