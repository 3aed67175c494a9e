// Package etcdserverpb is a stub of go.etcd.io/etcd/api/v3/etcdserverpb v3.7.3 for analysistest fixtures.
package etcdserverpb

import "go.etcd.io/etcd/api/v3/mvccpb"

type ResponseHeader struct {
	ClusterId uint64
	MemberId  uint64
	Revision  int64
	RaftTerm  uint64
}

func (x *ResponseHeader) GetRevision() (_ int64) { return }

type RangeResponse struct {
	Header *ResponseHeader
	Kvs    []*mvccpb.KeyValue
	More   bool
	Count  int64
}

type PutResponse struct {
	Header *ResponseHeader
	PrevKv *mvccpb.KeyValue
}

type DeleteRangeResponse struct {
	Header  *ResponseHeader
	Deleted int64
	PrevKvs []*mvccpb.KeyValue
}

type ResponseOp struct{}

func (x *ResponseOp) GetResponseRange() (_ *RangeResponse) { return }

type TxnResponse struct {
	Header    *ResponseHeader
	Succeeded bool
	Responses []*ResponseOp
}

type Compare struct {
	Key      []byte
	RangeEnd []byte
}

type LeaseRevokeResponse struct {
	Header *ResponseHeader
}
