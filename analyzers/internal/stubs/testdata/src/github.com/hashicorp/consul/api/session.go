package api

import (
	"errors"
	"time"
)

const (
	SessionBehaviorRelease = "release"
	SessionBehaviorDelete  = "delete"
)

var ErrSessionExpired = errors.New("session expired")

type SessionEntry struct {
	CreateIndex uint64
	ID          string
	Name        string
	Node        string
	LockDelay   time.Duration
	Behavior    string
	TTL         string
	Namespace   string `json:",omitempty"`
	Checks      []string
	NodeChecks  []string
}

type Session struct {
	c *Client
}

func (c *Client) Session() *Session { return &Session{c} }

func (s *Session) CreateNoChecks(se *SessionEntry, q *WriteOptions) (_ string, _ *WriteMeta, _ error) {
	return
}

func (s *Session) Create(se *SessionEntry, q *WriteOptions) (_ string, _ *WriteMeta, _ error) {
	return
}

func (s *Session) Destroy(id string, q *WriteOptions) (_ *WriteMeta, _ error) { return }

func (s *Session) Renew(id string, q *WriteOptions) (_ *SessionEntry, _ *WriteMeta, _ error) {
	return
}

func (s *Session) RenewPeriodic(initialTTL string, id string, q *WriteOptions, doneCh <-chan struct{}) (_ error) {
	return
}

func (s *Session) Info(id string, q *QueryOptions) (_ *SessionEntry, _ *QueryMeta, _ error) {
	return
}
