package clientv3

import (
	"context"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
)

type (
	LeaseRevokeResponse pb.LeaseRevokeResponse
	LeaseID             int64
)

type LeaseGrantResponse struct {
	*pb.ResponseHeader
	ID    LeaseID
	TTL   int64
	Error string
}

type LeaseKeepAliveResponse struct {
	*pb.ResponseHeader
	ID  LeaseID
	TTL int64
}

type LeaseTimeToLiveResponse struct {
	*pb.ResponseHeader
	ID         LeaseID  `json:"id"`
	TTL        int64    `json:"ttl"`
	GrantedTTL int64    `json:"granted-ttl"`
	Keys       [][]byte `json:"keys"`
}

const NoLease LeaseID = 0

type ErrKeepAliveHalted struct {
	Reason error
}

func (e ErrKeepAliveHalted) Error() (_ string) { return }

type LeaseOp struct{}

type LeaseOption func(*LeaseOp)

func WithAttachedKeys() (_ LeaseOption) { return }

type Lease interface {
	Grant(ctx context.Context, ttl int64) (*LeaseGrantResponse, error)
	Revoke(ctx context.Context, id LeaseID) (*LeaseRevokeResponse, error)
	TimeToLive(ctx context.Context, id LeaseID, opts ...LeaseOption) (*LeaseTimeToLiveResponse, error)
	KeepAlive(ctx context.Context, id LeaseID) (<-chan *LeaseKeepAliveResponse, error)
	KeepAliveOnce(ctx context.Context, id LeaseID) (*LeaseKeepAliveResponse, error)
	Close() error
}

func NewLease(c *Client) (_ Lease) { return }
