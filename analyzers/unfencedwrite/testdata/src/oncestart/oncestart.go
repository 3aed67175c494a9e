// Package oncestart reaches goroutines that the program starts at most
// once (a lazy start behind a flag nothing resets, sync.Once) from lease
// regions: they are not work handed over under the lease. Starts that
// happen again per lease (a flag reset on stop, an object made per lease,
// a flag tested but never set) and writes made once but in the holder's
// own goroutine stay reported.
package oncestart

import (
	"database/sql"
	"sync"
	"sync/atomic"

	"github.com/go-redsync/redsync/v4"

	"oncestart/dest"
)

type Syncer struct {
	rs    *redsync.Redsync
	db    *sql.DB
	reg   *dest.Registry
	proxy *dest.Proxy
	pump  *dest.Pump

	once      sync.Once
	loops     int32
	auditing  atomic.Bool
	compacter atomic.Bool
	Exported  bool
	announced bool
	closed    bool
}

// copyIntervals is the sync's own write under the lock.
func (s *Syncer) copyIntervals() {
	s.db.Exec(`DELETE FROM intervals WHERE collection = 'c'`) // want `DB.Exec \(DELETE intervals\) writes to SQL database without a fencing token while the redsync lock taken by Mutex.Lock`
}

// loop writes for the life of the process.
func (s *Syncer) loop() {
	for {
		s.db.Exec(`UPDATE heartbeats SET at = now() WHERE node = 'me'`)
	}
}

// SyncLookedUp reaches the destination's lazy start through a registry's
// getter: the stream starts once per process, whoever holds the lock.
func (s *Syncer) SyncLookedUp(id string) {
	mu := s.rs.NewMutex("collection")
	if err := mu.Lock(); err != nil {
		return
	}
	defer mu.Unlock()
	p, ok := s.reg.ByID(id)
	if !ok {
		return
	}
	if db, ok := p.Get(); ok {
		db.Exec(`UPDATE collections SET synced = now()`) // want `DB.Exec \(UPDATE collections\) writes to SQL database without a fencing token`
	}
}

// SyncField reaches it through a proxy the syncer keeps.
func (s *Syncer) SyncField() {
	mu := s.rs.NewMutex("collection")
	if err := mu.Lock(); err != nil {
		return
	}
	defer mu.Unlock()
	s.proxy.Get()
	s.copyIntervals()
}

// SyncFresh makes a new proxy per lease: its stream starts under each
// lease, so it is work handed over under it.
func (s *Syncer) SyncFresh() {
	mu := s.rs.NewMutex("collection")
	if err := mu.Lock(); err != nil {
		return
	}
	defer mu.Unlock()
	p := dest.New(s.db)
	p.Get() // want `Proxy.Get \(DB.Exec \(UPDATE events\) at dest.go:\d+, via Proxy.stream, via Proxy.start\) writes to SQL database without a fencing token`
}

// Pump starts a copier whose flag Stop resets: one per lease.
func (s *Syncer) Pump() {
	mu := s.rs.NewMutex("collection")
	if err := mu.Lock(); err != nil {
		return
	}
	defer mu.Unlock()
	s.pump.Start() // want `Pump.Start \(DB.Exec \(INSERT copies\) at dest.go:\d+, via Pump.copyRows\) writes to SQL database without a fencing token`
}

// Warm starts the heartbeat loop once, with sync.Once.
func (s *Syncer) Warm() {
	mu := s.rs.NewMutex("collection")
	if err := mu.Lock(); err != nil {
		return
	}
	defer mu.Unlock()
	s.once.Do(func() { go s.loop() })
}

// Seed writes once, but in the holder's own goroutine, under the lock.
func (s *Syncer) Seed() {
	mu := s.rs.NewMutex("collection")
	if err := mu.Lock(); err != nil {
		return
	}
	defer mu.Unlock()
	var seed sync.Once
	seed.Do(func() { go s.loop() }) // want `Syncer.loop \(DB.Exec \(UPDATE heartbeats\) at oncestart.go:\d+\) writes to SQL database without a fencing token`
	s.once.Do(func() {
		s.db.Exec(`INSERT INTO seeds VALUES (1)`) // want `DB.Exec \(INSERT seeds\) writes to SQL database without a fencing token`
	})
}

// Loops starts the loop and the compacter once, each claimed with a
// compare-and-swap; the auditor's flag is reset by StopAuditing, so it
// starts again after each stop.
func (s *Syncer) Loops() {
	mu := s.rs.NewMutex("collection")
	if err := mu.Lock(); err != nil {
		return
	}
	defer mu.Unlock()
	if atomic.CompareAndSwapInt32(&s.loops, 0, 1) {
		go s.loop()
	}
	if s.compacter.CompareAndSwap(false, true) {
		go func() {
			s.db.Exec(`DELETE FROM events WHERE sent = true`)
		}()
	}
	if s.auditing.CompareAndSwap(false, true) {
		go func() {
			s.db.Exec(`INSERT INTO audits VALUES (now())`) // want `DB.Exec \(INSERT audits\) writes to SQL database without a fencing token`
		}()
	}
}

// PerLease starts the loop behind flags that do not make it once: one
// exported (another package may reset it), one never set, one that only
// Close sets (every call before it starts a loop).
func (s *Syncer) PerLease() {
	mu := s.rs.NewMutex("collection")
	if err := mu.Lock(); err != nil {
		return
	}
	defer mu.Unlock()
	if !s.Exported {
		s.Exported = true
		go s.loop() // want `Syncer.loop \(DB.Exec \(UPDATE heartbeats\) at oncestart.go:\d+\) writes to SQL database without a fencing token`
	}
	if !s.announced {
		go s.loop() // want `Syncer.loop \(DB.Exec \(UPDATE heartbeats\) at oncestart.go:\d+\) writes to SQL database without a fencing token`
	}
	if !s.closed {
		go s.loop() // want `Syncer.loop \(DB.Exec \(UPDATE heartbeats\) at oncestart.go:\d+\) writes to SQL database without a fencing token`
	}
}

// Close stops new loops.
func (s *Syncer) Close() { s.closed = true }

// StopAuditing lets Loops start another auditor.
func (s *Syncer) StopAuditing() { s.auditing.Store(false) }

// Session keeps a proxy that Renew replaces: the proxy, and its flag, may
// be new per lease.
type Session struct {
	rs    *redsync.Redsync
	db    *sql.DB
	proxy *dest.Proxy
}

// Renew makes a new proxy for the next lease.
func (s *Session) Renew() { s.proxy = dest.New(s.db) }

// Run reaches the lazy start through the replaced proxy.
func (s *Session) Run() {
	mu := s.rs.NewMutex("collection")
	if err := mu.Lock(); err != nil {
		return
	}
	defer mu.Unlock()
	s.proxy.Get() // want `Proxy.Get \(DB.Exec \(UPDATE events\) at dest.go:\d+, via Proxy.stream, via Proxy.start\) writes`
}

// Catalogued reaches the lazy start through the application's interfaces:
// every Destination starts its stream once; a Source may be a Direct one,
// which writes on every Open.
func (s *Syncer) Catalogued(c *dest.Catalog, id string) {
	mu := s.rs.NewMutex("collection")
	if err := mu.Lock(); err != nil {
		return
	}
	defer mu.Unlock()
	if d, ok := c.Destination(id); ok {
		d.Get()
	}
	c.Source(id).Open() // want `Source.Open \(DB.Exec \(UPDATE sources\) at dest.go:\d+, via \*dest.Direct.Open\) writes to SQL database without a fencing token`
}

// startLoop starts the heartbeat loop.
func (s *Syncer) startLoop() { go s.loop() }

// WarmValue starts it once through a method value.
func (s *Syncer) WarmValue() {
	mu := s.rs.NewMutex("collection")
	if err := mu.Lock(); err != nil {
		return
	}
	defer mu.Unlock()
	s.once.Do(s.startLoop)
}

// reaperStarted is the process's: the reaper starts once.
var reaperStarted bool

// Reap starts the process's reaper on the first lease.
func (s *Syncer) Reap() {
	mu := s.rs.NewMutex("collection")
	if err := mu.Lock(); err != nil {
		return
	}
	defer mu.Unlock()
	if !reaperStarted {
		reaperStarted = true
		go s.loop()
	}
}
