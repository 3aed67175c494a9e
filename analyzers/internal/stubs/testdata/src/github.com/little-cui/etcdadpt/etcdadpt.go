// Package etcdadpt is a stub of github.com/little-cui/etcdadpt v0.4.0 for
// analysistest fixtures: real signatures, no behaviour. Get and List, and
// Response.Kvs, are left out: they name etcd's mvccpb types, which the
// fixtures do not need.
package etcdadpt

import "context"

type Action int

const (
	ActionGet Action = iota
	ActionPut
	ActionDelete
)

type Response struct {
	Action    Action
	Count     int64
	Revision  int64
	Succeeded bool
}

type OpOptions struct {
	Action Action
	Key    []byte
	Value  []byte
	Prefix bool
	Lease  int64
}

type OpOption func(*OpOptions)

var GET OpOption = func(op *OpOptions) { op.Action = ActionGet }
var PUT OpOption = func(op *OpOptions) { op.Action = ActionPut }
var DEL OpOption = func(op *OpOptions) { op.Action = ActionDelete }

func WithStrKey(key string) OpOption     { return nil }
func WithStrValue(value string) OpOption { return nil }
func WithValue(value []byte) OpOption    { return nil }
func WithPrefix() OpOption               { return nil }
func WithLease(leaseID int64) OpOption   { return nil }

func OpPut(opts ...OpOption) (op OpOptions) { return op }
func OpDel(opts ...OpOption) (op OpOptions) { return op }
func Ops(ops ...OpOptions) []OpOptions      { return ops }

type CmpOptions struct {
	Key   []byte
	Value interface{}
}

func If(opts ...CmpOptions) []CmpOptions                     { return opts }
func ExistKey(key string) CmpOptions                         { return CmpOptions{} }
func NotExistKey(key string) CmpOptions                      { return CmpOptions{} }
func EqualVer(key string, v interface{}) CmpOptions          { return CmpOptions{} }
func EqualModRev(key string, v interface{}) CmpOptions       { return CmpOptions{} }
func NotEqualVer(key string, v interface{}) CmpOptions       { return CmpOptions{} }
func EqualCreateRev(key string, v interface{}) CmpOptions    { return CmpOptions{} }
func NotEqualModRev(key string, v interface{}) CmpOptions    { return CmpOptions{} }
func GreaterModRev(key string, v interface{}) CmpOptions     { return CmpOptions{} }
func LessCreateRev(key string, v interface{}) CmpOptions     { return CmpOptions{} }
func EqualVal(key string, v interface{}) CmpOptions          { return CmpOptions{} }
func NotEqualCreateRev(key string, v interface{}) CmpOptions { return CmpOptions{} }

type Client interface {
	Do(ctx context.Context, opts ...OpOption) (*Response, error)
	Txn(ctx context.Context, ops []OpOptions) (*Response, error)
	TxnWithCmp(ctx context.Context, success []OpOptions, cmp []CmpOptions, fail []OpOptions) (*Response, error)
	LeaseGrant(ctx context.Context, TTL int64) (leaseID int64, err error)
	LeaseRenew(ctx context.Context, leaseID int64) (TTL int64, err error)
	LeaseRevoke(ctx context.Context, leaseID int64) error
	Compact(ctx context.Context, reserve int64) error
	Close()
}

func Instance() Client { return nil }

func Insert(ctx context.Context, key, value string, opts ...OpOption) (bool, error) {
	return false, nil
}
func InsertBytes(ctx context.Context, key string, value []byte, opts ...OpOption) (bool, error) {
	return false, nil
}
func Put(ctx context.Context, key string, value string, opts ...OpOption) error      { return nil }
func PutBytes(ctx context.Context, key string, value []byte, opts ...OpOption) error { return nil }
func PutBytesAndGet(ctx context.Context, key string, value []byte, opts ...OpOption) (*Response, error) {
	return nil, nil
}
func Exist(ctx context.Context, key string) (bool, error)                    { return false, nil }
func Delete(ctx context.Context, key string, opts ...OpOption) (bool, error) { return false, nil }
func DeleteMany(ctx context.Context, opts ...OpOptions) (bool, error)        { return false, nil }
func ListAndDelete(ctx context.Context, key string, opts ...OpOption) (*Response, error) {
	return nil, nil
}
func ListAndDeleteMany(ctx context.Context, opts ...OpOptions) (*Response, error) { return nil, nil }
func Txn(ctx context.Context, opts []OpOptions) error                             { return nil }
func TxnWithCmp(ctx context.Context, opts []OpOptions, cmp []CmpOptions, fail []OpOptions) (resp *Response, err error) {
	return nil, nil
}

type DLock struct{}

func Lock(key string, ttl int64) (*DLock, error)    { return nil, nil }
func TryLock(key string, ttl int64) (*DLock, error) { return nil, nil }
func (m *DLock) ID() string                         { return "" }
func (m *DLock) Refresh() error                     { return nil }
func (m *DLock) Unlock() (err error)                { return nil }
