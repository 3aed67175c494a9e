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

func NewElection(s *Session, pfx string) (_ *Election) { return }

func ResumeElection(s *Session, pfx string, leaderKey string, leaderRev int64) (_ *Election) {
	return
}

func (e *Election) Campaign(ctx context.Context, val string) (_ error)      { return }
func (e *Election) Proclaim(ctx context.Context, val string) (_ error)      { return }
func (e *Election) Resign(ctx context.Context) (err error)                  { return }
func (e *Election) Leader(ctx context.Context) (_ *v3.GetResponse, _ error) { return }
func (e *Election) Observe(ctx context.Context) (_ <-chan *v3.GetResponse)  { return }
func (e *Election) Key() (_ string)                                         { return }
func (e *Election) Rev() (_ int64)                                          { return }
func (e *Election) Header() (_ *pb.ResponseHeader)                          { return }
