// Package mvccpb is a stub of go.etcd.io/etcd/api/v3/mvccpb v3.7.3 for analysistest fixtures.
package mvccpb

type KeyValue struct {
	Key            []byte
	CreateRevision int64
	ModRevision    int64
	Version        int64
	Value          []byte
	Lease          int64
}

func (x *KeyValue) GetCreateRevision() int64 { panic("stub") }
func (x *KeyValue) GetModRevision() int64    { panic("stub") }
func (x *KeyValue) GetVersion() int64        { panic("stub") }
