package kooperctl

import (
	"context"
	"net"

	"github.com/redis/go-redis/v9"
	"github.com/spotahome/kooper/v2/controller"
	"github.com/spotahome/kooper/v2/controller/leaderelection"
	"k8s.io/apimachinery/pkg/runtime"
)

// Healer points every replica at the master the leader chose
// (redis-operator's SetMasterOnAll): a leader paused past its lease points
// them back at the master the next leader replaced.
type Healer struct {
	master string
	pods   []string
}

func (h *Healer) Handle(ctx context.Context, obj runtime.Object) error {
	for _, ip := range h.pods {
		if err := makeSlaveOf(ctx, ip, h.master); err != nil {
			return err
		}
	}
	return nil
}

func makeSlaveOf(ctx context.Context, ip, master string) error {
	rdb := redis.NewClient(&redis.Options{Addr: net.JoinHostPort(ip, "6379")})
	defer rdb.Close()
	return rdb.SlaveOf(ctx, master, "6379").Err() // want `SlaveOf writes to Redis without a fencing token while the Kubernetes leader election lease .* is held: .*Redis applies SLAVEOF whoever sends it`
}

func NewHealController(le leaderelection.Runner, pods []string) (controller.Controller, error) {
	return controller.New(&controller.Config{
		Handler:       &Healer{master: "10.0.0.1", pods: pods},
		LeaderElector: le,
		Name:          "heal",
	})
}
