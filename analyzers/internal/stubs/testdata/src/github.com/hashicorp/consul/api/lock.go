package api

import (
	"fmt"
	"time"
)

var (
	ErrLockHeld     = fmt.Errorf("Lock already held")
	ErrLockConflict = fmt.Errorf("Existing key does not match lock use")
)

type Lock struct {
	c    *Client
	opts *LockOptions
}

type LockOptions struct {
	Key              string
	Value            []byte
	Session          string
	SessionOpts      *SessionEntry
	SessionName      string
	SessionTTL       string
	MonitorRetries   int
	MonitorRetryTime time.Duration
	LockWaitTime     time.Duration
	LockTryOnce      bool
	LockDelay        time.Duration
	Namespace        string `json:",omitempty"`
}

func (c *Client) LockKey(key string) (_ *Lock, _ error)         { return }
func (c *Client) LockOpts(opts *LockOptions) (_ *Lock, _ error) { return }

func (l *Lock) Lock(stopCh <-chan struct{}) (_ <-chan struct{}, _ error) { return }
func (l *Lock) Unlock() (_ error)                                        { return }
func (l *Lock) Destroy() (_ error)                                       { return }

type Semaphore struct {
	c    *Client
	opts *SemaphoreOptions
}

type SemaphoreOptions struct {
	Prefix            string
	Limit             int
	Value             []byte
	Session           string
	SessionName       string
	SessionTTL        string
	MonitorRetries    int
	MonitorRetryTime  time.Duration
	SemaphoreWaitTime time.Duration
	SemaphoreTryOnce  bool
	Namespace         string `json:",omitempty"`
}

func (c *Client) SemaphorePrefix(prefix string, limit int) (_ *Semaphore, _ error) { return }
func (c *Client) SemaphoreOpts(opts *SemaphoreOptions) (_ *Semaphore, _ error)     { return }

func (s *Semaphore) Acquire(stopCh <-chan struct{}) (_ <-chan struct{}, _ error) { return }
func (s *Semaphore) Release() (_ error)                                          { return }
func (s *Semaphore) Destroy() (_ error)                                          { return }
