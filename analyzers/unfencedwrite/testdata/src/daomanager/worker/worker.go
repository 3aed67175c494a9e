// Package worker is the elected worker: it syncs storage classes into the
// volume-type table and marks recovered pods' failure events, reaching
// the DAOs through db.GetManager().
package worker

import (
	"context"

	"k8s.io/client-go/tools/leaderelection/resourcelock"

	"daomanager/db"
	"daomanager/db/model"
	"daomanager/leader"
)

// Controller runs the leader's work.
type Controller struct {
	ctx    context.Context
	lock   resourcelock.Interface
	pods   chan string
	probes chan *model.ProbeResult
	stopCh chan struct{}
}

// Start campaigns from a goroutine that campaigns again whenever the lease
// is lost; start, which it captures, runs under the lease.
func (c *Controller) Start() {
	start := func(ctx context.Context) {
		go c.handlePods()
		go c.recordProbes()
		c.syncVolumeTypes([]*model.VolumeType{{VolumeType: "csi-rbd"}})
		<-ctx.Done()
	}
	again := make(chan struct{}, 1)
	go func() {
		for {
			select {
			case <-c.ctx.Done():
				return
			case <-again:
				leader.RunAsLeader(c.ctx, c.lock, start, func() { again <- struct{}{} })
			}
		}
	}()
	again <- struct{}{}
}

func (c *Controller) syncVolumeTypes(vts []*model.VolumeType) {
	for _, vt := range vts {
		db.GetManager().VolumeTypeDao().CreateOrUpdateVolumeType(vt) // want `VolumeTypeDao.CreateOrUpdateVolumeType \(DB.Save \(UPDATE volume_types\) at dao.go:\d+, via VolumeTypeDaoImpl.UpdateModel, via \*dao.VolumeTypeDaoImpl.CreateOrUpdateVolumeType\) writes to SQL database without a fencing token`
	}
}

// handlePods marks a recovered pod's failure event complete: EventDao's
// UpdateModel is the event table's Save.
func (c *Controller) handlePods() {
	for {
		select {
		case pod := <-c.pods:
			evt, err := db.GetManager().ServiceEventDao().LatestFailurePodEvent(pod)
			if err != nil {
				continue
			}
			evt.FinalStatus = "emptycomplete"
			db.GetManager().ServiceEventDao().UpdateModel(evt) // want `Dao.UpdateModel \(DB.Save \(UPDATE service_events\) at dao.go:\d+, via \*dao.EventDaoImpl.UpdateModel\) writes to SQL database without a fencing token while the Kubernetes leader election lease \(OnStartedLeading\) that RunAsLeader holds`
		case <-c.stopCh:
			return
		}
	}
}

// recordProbes keeps probe results through ProbeDao's UpdateModel, which
// writes memory only, though every other table's UpdateModel writes the
// database.
func (c *Controller) recordProbes() {
	for {
		select {
		case r := <-c.probes:
			db.GetManager().ProbeDao().UpdateModel(r)
		case <-c.stopCh:
			return
		}
	}
}
