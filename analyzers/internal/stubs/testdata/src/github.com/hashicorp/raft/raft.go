// Package raft is a stub of github.com/hashicorp/raft v1.8.0 for
// analysistest fixtures: real signatures, no behaviour.
package raft

import (
	"errors"
	"io"
	"time"
)

var (
	ErrNotLeader      = errors.New("node is not the leader")
	ErrLeadershipLost = errors.New("leadership lost while committing log")
)

type ServerID string

type ServerAddress string

type RaftState uint32

const (
	Follower RaftState = iota
	Candidate
	Leader
	Shutdown
)

func (s RaftState) String() (_ string) { return }

type FSM interface {
	Apply(*Log) interface{}
	Snapshot() (FSMSnapshot, error)
	Restore(snapshot io.ReadCloser) error
}

type FSMSnapshot interface {
	Persist(sink SnapshotSink) error
	Release()
}

type SnapshotSink interface {
	io.WriteCloser
	ID() string
	Cancel() error
}

type Future interface {
	Error() error
}

type IndexFuture interface {
	Future
	Index() uint64
}

type ApplyFuture interface {
	IndexFuture
	Response() interface{}
}

type LogType uint8

type Log struct {
	Index      uint64
	Term       uint64
	Type       LogType
	Data       []byte
	Extensions []byte
	AppendedAt time.Time
}

type Raft struct {
	leaderCh chan bool
}

func (r *Raft) Leader() (_ ServerAddress)                               { return }
func (r *Raft) LeaderWithID() (_ ServerAddress, _ ServerID)             { return }
func (r *Raft) Apply(cmd []byte, timeout time.Duration) (_ ApplyFuture) { return }
func (r *Raft) ApplyLog(log Log, timeout time.Duration) (_ ApplyFuture) { return }
func (r *Raft) Barrier(timeout time.Duration) (_ Future)                { return }
func (r *Raft) VerifyLeader() (_ Future)                                { return }
func (r *Raft) State() (_ RaftState)                                    { return }
func (r *Raft) LeaderCh() <-chan bool                                   { return r.leaderCh }
func (r *Raft) CurrentTerm() (_ uint64)                                 { return }
func (r *Raft) LastIndex() (_ uint64)                                   { return }
func (r *Raft) AppliedIndex() (_ uint64)                                { return }

// Config is the part of raft.Config fencelint reads: NotifyCh, the
// application's channel of leadership notices.
type Config struct {
	LocalID  ServerID
	NotifyCh chan<- bool
}
