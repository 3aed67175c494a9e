// Package shapes holds control-flow shapes around a check: which writes run
// only after the check said "held", and which run either way.
package shapes

import (
	"context"
	"database/sql"
	"log"
	"time"

	"k8s.io/client-go/tools/leaderelection"
)

type w struct {
	le *leaderelection.LeaderElector
	db *sql.DB
}

// waitThenWrite waits until leader, then writes: check-then-act too.
func (x *w) waitThenWrite(ctx context.Context) {
	for !x.le.IsLeader() { // want `IsLeader only tells that the lease was held when it ran, yet it guards the unfenced write DB.ExecContext \(UPDATE a\) at line 24`
		time.Sleep(time.Second)
	}
	x.db.ExecContext(ctx, "UPDATE a SET n = 1")
}

// continueLoop skips the round when not leader.
func (x *w) continueLoop(ctx context.Context, ids []int) {
	for _, id := range ids {
		if !x.le.IsLeader() { // want `IsLeader .* DB.ExecContext \(UPDATE b\) at line 33`
			continue
		}
		x.db.ExecContext(ctx, "UPDATE b SET n = $1", id)
	}
}

// deferred registers the write after the check; it runs after it too.
func (x *w) deferred(ctx context.Context) {
	if !x.le.IsLeader() { // want `IsLeader .* DB.ExecContext \(UPDATE c\) at line 42`
		return
	}
	defer x.db.ExecContext(ctx, "UPDATE c SET n = 1")
	log.Print("working")
}

// switchTrue writes in the case where the check holds.
func (x *w) switchTrue(ctx context.Context, busy bool) {
	switch {
	case busy:
		return
	case x.le.IsLeader(): // want `IsLeader .* DB.ExecContext \(UPDATE d\) at line 52`
		x.db.ExecContext(ctx, "UPDATE d SET n = 1")
	}
}

// followerWork writes only when not leader.
func (x *w) followerWork(ctx context.Context) {
	if x.le.IsLeader() {
		return
	}
	x.db.ExecContext(ctx, "UPDATE e SET n = 1")
}

// breakOrTimeout leaves the loop when leader or after three tries, then
// writes either way.
func (x *w) breakOrTimeout(ctx context.Context) {
	for i := 0; i < 3; i++ {
		if x.le.IsLeader() {
			break
		}
		time.Sleep(time.Second)
	}
	x.db.ExecContext(ctx, "UPDATE f SET n = 1")
}

// orElse writes when leader or forced: forced runs it without the check.
func (x *w) orElse(ctx context.Context, forced bool) {
	if x.le.IsLeader() || forced {
		x.db.ExecContext(ctx, "UPDATE g SET n = 1")
	}
}

// before writes before it checks.
func (x *w) before(ctx context.Context) bool {
	x.db.ExecContext(ctx, "UPDATE h SET n = 1")
	return x.le.IsLeader()
}

// stored keeps the answer in a variable a closure reads later: not
// followed (the closure may run at any time).
func (x *w) stored(ctx context.Context) func() {
	ok := x.le.IsLeader()
	return func() {
		if ok {
			log.Print("was leader")
		}
	}
}

// leaderer is anything that can say whether it leads.
type leaderer interface{ IsLeader() bool }

// generic checks through a type parameter; nothing is known of T.
func generic[T leaderer](ctx context.Context, t T, db *sql.DB) {
	if t.IsLeader() {
		db.ExecContext(ctx, "UPDATE i SET n = 1")
	}
}

// methodValue calls the check through a method value.
func (x *w) methodValue(ctx context.Context) {
	isLeader := x.le.IsLeader
	if isLeader() {
		log.Print("leader")
	}
}

// selectLoop checks in a select loop and writes in the held branch.
func (x *w) selectLoop(ctx context.Context, tick <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
			if x.le.IsLeader() { // want `IsLeader .* DB.ExecContext \(UPDATE j\) at line 126`
				x.db.ExecContext(ctx, "UPDATE j SET n = 1")
			}
		}
	}
}

// recovered writes after a recover; the check guards the write.
func (x *w) recovered(ctx context.Context) (err error) {
	defer func() {
		if r := recover(); r != nil {
			log.Print(r)
		}
	}()
	if x.le.IsLeader() == false { // want `IsLeader .* DB.ExecContext \(UPDATE k\) at line 142`
		return nil
	}
	_, err = x.db.ExecContext(ctx, "UPDATE k SET n = 1")
	return err
}

// publishBoth writes through a helper that makes two unfenced writes: the
// finding names both, since each needs its fence.
func (x *w) publishBoth(ctx context.Context) {
	if !x.le.IsLeader() { // want `IsLeader .* w.saveBoth \(DB.ExecContext \(UPDATE d\) at shapes.go:156; it reaches 2 unfenced writes: DB.ExecContext \(UPDATE d\) at shapes.go:156, DB.ExecContext \(UPDATE e\) at shapes.go:157\) at line 152`
		return
	}
	x.saveBoth(ctx)
}

func (x *w) saveBoth(ctx context.Context) {
	x.db.ExecContext(ctx, "UPDATE d SET n = 1")
	x.db.ExecContext(ctx, "UPDATE e SET n = 1")
}
