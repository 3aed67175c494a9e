package consulrenew

import (
	"log"
	"time"

	"github.com/hashicorp/consul/api"
)

// manageSessions hands out sessions on out and keeps the current one alive;
// when its renewal ends, however it ended, the rest of the turn tells the
// consumer with an empty id before the loop makes the next session.
func (s *syncer) manageSessions(out chan<- string, done chan struct{}) {
	go func() {
		for {
			id, _, err := s.consul.Session().CreateNoChecks(&api.SessionEntry{TTL: "15s"}, nil)
			if err != nil {
				time.Sleep(time.Second)
				continue
			}
			select {
			case out <- id:
				err = s.consul.Session().RenewPeriodic("15s", id, nil, done)
				if err != nil {
					log.Printf("lost session %s: %v", id, err)
				}
				select {
				case out <- "":
				case <-done:
					return
				}
			case <-done:
				return
			}
		}
	}()
}

// manageSessionsQuietly is the same loop without the empty id: the next
// turn's session is handed out only once it is made, and until then the
// consumer goes on with the session that is gone.
func (s *syncer) manageSessionsQuietly(out chan<- string, done chan struct{}) {
	go func() { // want `the error of Session.RenewPeriodic \(line \d+\) is dropped`
		for {
			id, _, err := s.consul.Session().CreateNoChecks(&api.SessionEntry{TTL: "15s"}, nil)
			if err != nil {
				time.Sleep(time.Second)
				continue
			}
			out <- id
			err = s.consul.Session().RenewPeriodic("15s", id, nil, done)
			if err != nil {
				log.Printf("lost session %s: %v", id, err)
			}
			time.Sleep(time.Second)
		}
	}()
}
