// Package api is a stub of github.com/hashicorp/consul/api v1.34.5 (whose
// lock, session, kv and txn files match v1.35.0) for analysistest fixtures:
// real signatures, no behaviour.
package api

import (
	"context"
	"time"
)

type QueryOptions struct {
	Namespace         string
	Partition         string
	Datacenter        string
	AllowStale        bool
	RequireConsistent bool
	WaitIndex         uint64
	WaitTime          time.Duration
	Token             string
	ctx               context.Context
}

func (o *QueryOptions) Context() context.Context                          { return o.ctx }
func (o *QueryOptions) WithContext(ctx context.Context) (_ *QueryOptions) { return }

type WriteOptions struct {
	Namespace  string
	Partition  string
	Datacenter string
	Token      string
	ctx        context.Context
}

func (o *WriteOptions) Context() context.Context                          { return o.ctx }
func (o *WriteOptions) WithContext(ctx context.Context) (_ *WriteOptions) { return }

type QueryMeta struct {
	LastIndex   uint64
	LastContact time.Duration
	KnownLeader bool
	RequestTime time.Duration
}

type WriteMeta struct {
	RequestTime time.Duration
	Warnings    []string
}

type Config struct {
	Address    string
	Scheme     string
	PathPrefix string
	Datacenter string
	WaitTime   time.Duration
	Token      string
	Namespace  string
	Partition  string
}

func DefaultConfig() (_ *Config) { return }

type Client struct {
	config Config
}

func NewClient(config *Config) (_ *Client, _ error) { return }
