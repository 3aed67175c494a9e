package oncestart

import "github.com/go-redsync/redsync/v4"

// Elector runs its handler while it holds the election lock.
type Elector struct {
	rs *redsync.Redsync
}

// Lead takes the lock and hands the leadership to onLead.
func (e *Elector) Lead(onLead func()) {
	mu := e.rs.NewMutex("leader")
	if err := mu.Lock(); err != nil {
		return
	}
	defer mu.Unlock()
	onLead()
}

// Controller's leadership handler guards itself with a flag it sets once
// its work is started and never resets: the work it starts is still the
// leader's, started under the lease the handler is handed.
type Controller struct {
	syncer  *Syncer
	leading bool
}

func (c *Controller) Run(e *Elector) { e.Lead(c.becomeLeader) }

func (c *Controller) becomeLeader() {
	if c.leading {
		return
	}
	go c.syncer.loop() // want `Syncer.loop \(DB.Exec \(UPDATE heartbeats\) at oncestart.go:\d+\) writes to SQL database without a fencing token`
	c.leading = true
}

// A lazy start in a getter the handler calls is still the process's.
func (c *Controller) becomeLeaderLazily() {
	c.syncer.lazyLoop()
}

func (c *Controller) RunLazily(e *Elector) { e.Lead(c.becomeLeaderLazily) }

var lazyStarted bool

func (s *Syncer) lazyLoop() {
	if !lazyStarted {
		lazyStarted = true
		go s.loop()
	}
}
