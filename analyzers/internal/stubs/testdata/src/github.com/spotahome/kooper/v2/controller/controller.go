package controller

import (
	"context"
	"time"

	"github.com/spotahome/kooper/v2/controller/leaderelection"
	"github.com/spotahome/kooper/v2/log"
	"k8s.io/apimachinery/pkg/runtime"
)

type Controller interface {
	Run(ctx context.Context) error
}

type Config struct {
	Handler              Handler
	LeaderElector        leaderelection.Runner
	Logger               log.Logger
	Name                 string
	ConcurrentWorkers    int
	ResyncInterval       time.Duration
	ProcessingJobRetries int
	DisableResync        bool
}

func New(cfg *Config) (_ Controller, _ error) { return }

type Handler interface {
	Handle(context.Context, runtime.Object) error
}

type HandlerFunc func(context.Context, runtime.Object) error

func (h HandlerFunc) Handle(ctx context.Context, obj runtime.Object) (_ error) { return }
