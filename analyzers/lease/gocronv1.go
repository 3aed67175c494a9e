package lease

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// gocron v1 configures a scheduler with its methods, not with options to
// its constructor, and a job's func is what the end of a builder chain on
// the scheduler runs:
//
//	s := gocron.NewScheduler(time.UTC)
//	s.WithDistributedLocker(locker)
//	s.Every(1).Hour().Do(settle, db)
//
// A service often keeps a second scheduler for the work every replica
// does (a cache refresh), with no locker: only the jobs of a scheduler
// given a locker or an elector run under a lease. The scheduler is told
// by the value the chain starts from: the NewScheduler call's result, or
// the struct field it was stored in (s.sched.Cron(spec).Do(f), the locker
// set where the field was filled). A scheduler made out of sight (a
// parameter, a field filled in another package) falls back to whether the
// package configures any.

// v1DoLocked reports whether the gocron v1 Do (or DoWithJobDetails) call
// runs its job under a distributed locker or elector.
func (b *builder) v1DoLocked(do *ssa.Call, elected bool) bool {
	id := b.v1SchedulerID(callRecv(do.Common()))
	if id == nil {
		return elected
	}
	scheds := b.v1Schedulers()
	if scheds.configured[id] {
		return true
	}
	if _, made := id.(*ssa.Call); made || scheds.filled[id] {
		return false // made in sight, and never given a locker or elector
	}
	return elected
}

// isV1Do reports whether call, a gocron task registration, is gocron
// v1's Scheduler.Do or DoWithJobDetails (v2's NewTask is a function).
func isV1Do(call *ssa.Call) bool {
	f := calleeFunc(call.Common())
	return f != nil && f.Signature().Recv() != nil && receiverName(f) == "Scheduler"
}

// v1SchedulerID names the scheduler a chain of gocron v1 Scheduler
// methods starts from: the NewScheduler call, or the field loaded; nil
// if neither is in sight.
func (b *builder) v1SchedulerID(v ssa.Value) any {
	for range 16 {
		if fv := loadedField(v); fv != nil {
			return fv
		}
		p := producer(v)
		if p == nil {
			return nil
		}
		f := calleeFunc(p.Common())
		if f == nil || f.Pkg() == nil || CanonicalPath(f.Pkg().Path()) != pkgGocron {
			return nil
		}
		if f.Name() == "NewScheduler" {
			return p
		}
		if receiverName(f) != "Scheduler" {
			return nil
		}
		v = callRecv(p.Common()) // s.Every(1).Hour(): back to s
	}
	return nil
}

// v1Schedulers returns, found once, the schedulers (by v1SchedulerID)
// that the package gives a distributed locker or elector, with the fields
// a configured NewScheduler result is stored in, and the fields any
// NewScheduler result is stored in.
func (b *builder) v1Schedulers() *gocronV1 {
	if b.gocronV1 != nil {
		return b.gocronV1
	}
	b.gocronV1 = &gocronV1{configured: make(map[any]bool), filled: make(map[any]bool)}
	b.calls(func(_ *ssa.Function, call ssa.CallInstruction) bool {
		f := calleeFunc(call.Common())
		if f == nil || f.Pkg() == nil || CanonicalPath(f.Pkg().Path()) != pkgGocron {
			return true
		}
		switch {
		case f.Name() == "NewScheduler" && f.Signature().Recv() == nil:
			if c, ok := call.(*ssa.Call); ok {
				for _, fv := range storedFieldsOf(c) {
					b.gocronV1.filled[fv] = true
				}
			}
		case receiverName(f) == "Scheduler" && (f.Name() == "WithDistributedLocker" || f.Name() == "WithDistributedElector"):
			id := b.v1SchedulerID(callRecv(call.Common()))
			if id == nil {
				return true
			}
			b.gocronV1.configured[id] = true
			if c, ok := id.(*ssa.Call); ok {
				for _, fv := range storedFieldsOf(c) {
					b.gocronV1.configured[fv] = true
				}
			}
		}
		return true
	})
	return b.gocronV1
}

// gocronV1 is what the package does with gocron v1 schedulers.
type gocronV1 struct {
	configured map[any]bool // schedulers given a locker or an elector
	filled     map[any]bool // fields a NewScheduler result is stored in
}

// storedFieldsOf returns the struct fields v is stored in.
func storedFieldsOf(v ssa.Value) []*types.Var {
	var fields []*types.Var
	for _, ref := range *v.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Val != v {
			continue
		}
		if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
			if fv := originVar(fieldVar(fa.X.Type(), fa.Field)); fv != nil {
				fields = append(fields, fv)
			}
		}
	}
	return fields
}
