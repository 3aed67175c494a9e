package concurrency

import (
	"context"
	"errors"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	v3 "go.etcd.io/etcd/client/v3"
)

var (
	ErrElectionNotLeader = errors.New("election: not leader")
	ErrElectionNoLeader  = errors.New("election: no leader")
)

type Election struct {
	session   *Session
	keyPrefix string
	leaderKey string
	leaderRev int64
	hdr       *pb.ResponseHeader
}

func NewElection(s *Session, pfx string) *Election { panic("stub") }

func ResumeElection(s *Session, pfx string, leaderKey string, leaderRev int64) *Election {
	panic("stub")
}

func (e *Election) Campaign(ctx context.Context, val string) error      { panic("stub") }
func (e *Election) Proclaim(ctx context.Context, val string) error      { panic("stub") }
func (e *Election) Resign(ctx context.Context) (err error)              { panic("stub") }
func (e *Election) Leader(ctx context.Context) (*v3.GetResponse, error) { panic("stub") }
func (e *Election) Observe(ctx context.Context) <-chan *v3.GetResponse  { panic("stub") }
func (e *Election) Key() string                                         { panic("stub") }
func (e *Election) Rev() int64                                          { panic("stub") }
func (e *Election) Header() *pb.ResponseHeader                          { panic("stub") }
