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

func Connect(servers []string, sessionTimeout time.Duration, options ...connOption) (*Conn, <-chan Event, error) {
	panic("stub")
}

func WithEventCallback(cb EventCallback) connOption { panic("stub") }

func (c *Conn) Close()                                                     { panic("stub") }
func (c *Conn) State() State                                               { panic("stub") }
func (c *Conn) SessionID() int64                                           { return c.sessionID }
func (c *Conn) Children(path string) ([]string, *Stat, error)              { panic("stub") }
func (c *Conn) Get(path string) ([]byte, *Stat, error)                     { panic("stub") }
func (c *Conn) Set(path string, data []byte, version int32) (*Stat, error) { panic("stub") }
func (c *Conn) Create(path string, data []byte, flags int32, acl []ACL) (string, error) {
	panic("stub")
}
func (c *Conn) CreateProtectedEphemeralSequential(path string, data []byte, acl []ACL) (string, error) {
	panic("stub")
}
func (c *Conn) Delete(path string, version int32) error { panic("stub") }
func (c *Conn) Exists(path string) (bool, *Stat, error) { panic("stub") }

type MultiResponse struct {
	Stat   *Stat
	String string
	Error  error
}

func (c *Conn) Multi(ops ...interface{}) ([]MultiResponse, error) { panic("stub") }

type ACL struct {
	Perms  int32
	Scheme string
	ID     string
}

func WorldACL(perms int32) []ACL { panic("stub") }

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
