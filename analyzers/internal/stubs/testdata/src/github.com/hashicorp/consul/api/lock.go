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

func (c *Client) LockKey(key string) (*Lock, error)         { panic("stub") }
func (c *Client) LockOpts(opts *LockOptions) (*Lock, error) { panic("stub") }

func (l *Lock) Lock(stopCh <-chan struct{}) (<-chan struct{}, error) { panic("stub") }
func (l *Lock) Unlock() error                                        { panic("stub") }
func (l *Lock) Destroy() error                                       { panic("stub") }

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

func (c *Client) SemaphorePrefix(prefix string, limit int) (*Semaphore, error) { panic("stub") }
func (c *Client) SemaphoreOpts(opts *SemaphoreOptions) (*Semaphore, error)     { panic("stub") }

func (s *Semaphore) Acquire(stopCh <-chan struct{}) (<-chan struct{}, error) { panic("stub") }
func (s *Semaphore) Release() error                                          { panic("stub") }
func (s *Semaphore) Destroy() error                                          { panic("stub") }
