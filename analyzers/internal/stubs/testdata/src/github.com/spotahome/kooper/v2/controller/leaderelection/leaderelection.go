package leaderelection

import (
	"github.com/spotahome/kooper/v2/log"
	"k8s.io/client-go/kubernetes"
)

type Runner interface {
	Run(func() error) error
}

func NewDefault(key, namespace string, k8scli kubernetes.Interface, logger log.Logger) (_ Runner, _ error) {
	return
}
