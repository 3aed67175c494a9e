// Package zk is a stub of github.com/go-zookeeper/zk v1.0.4 for
// analysistest fixtures: real signatures, no behaviour.
package zk

import (
	"errors"
	"time"
)

type Conn struct {
	sessionID int64
}

type connOption func(c *Conn)

type EventType int32

type State int32

const (
	EventNodeCreated EventType = 1
	EventSession     EventType = -1
)

const (
	StateUnknown      State = -1
	StateDisconnected State = 0
	StateExpired      State = -112
	StateConnected          = State(100)
	StateHasSession         = State(101)
)

const (
	FlagEphemeral = 1
	FlagSequence  = 2
	PermAll       = 0x1f
)

var (
	ErrNoNode     = errors.New("zk: node does not exist")
	ErrBadVersion = errors.New("zk: version conflict")
	ErrNodeExists = errors.New("zk: node already exists")
	ErrNotLocked  = errors.New("zk: not locked")
	ErrDeadlock   = errors.New("zk: trying to acquire a lock twice")
)

type Event struct {
	Type   EventType
	State  State
	Path   string
	Err    error
	Server string
}

type EventCallback func(Event)

func Connect(servers []string, sessionTimeout time.Duration, options ...connOption) (_ *Conn, _ <-chan Event, _ error) {
	return
}

func WithEventCallback(cb EventCallback) (_ connOption) { return }

func (c *Conn) Close()                                                         { return }
func (c *Conn) State() (_ State)                                               { return }
func (c *Conn) SessionID() int64                                               { return c.sessionID }
func (c *Conn) Children(path string) (_ []string, _ *Stat, _ error)            { return }
func (c *Conn) Get(path string) (_ []byte, _ *Stat, _ error)                   { return }
func (c *Conn) Set(path string, data []byte, version int32) (_ *Stat, _ error) { return }
func (c *Conn) Create(path string, data []byte, flags int32, acl []ACL) (_ string, _ error) {
	return
}
func (c *Conn) CreateProtectedEphemeralSequential(path string, data []byte, acl []ACL) (_ string, _ error) {
	return
}
func (c *Conn) Delete(path string, version int32) (_ error)   { return }
func (c *Conn) Exists(path string) (_ bool, _ *Stat, _ error) { return }

type MultiResponse struct {
	Stat   *Stat
	String string
	Error  error
}

func (c *Conn) Multi(ops ...interface{}) (_ []MultiResponse, _ error) { return }

type ACL struct {
	Perms  int32
	Scheme string
	ID     string
}

func WorldACL(perms int32) (_ []ACL) { return }

type Stat struct {
	Czxid          int64
	Mzxid          int64
	Ctime          int64
	Mtime          int64
	Version        int32
	Cversion       int32
	Aversion       int32
	EphemeralOwner int64
	DataLength     int32
	NumChildren    int32
	Pzxid          int64
}

type PathVersionRequest struct {
	Path    string
	Version int32
}

type CheckVersionRequest PathVersionRequest

type CreateRequest struct {
	Path  string
	Data  []byte
	Acl   []ACL
	Flags int32
}

type DeleteRequest PathVersionRequest

type SetDataRequest struct {
	Path    string
	Data    []byte
	Version int32
}
