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

func (x *KeyValue) GetCreateRevision() (_ int64) { return }
func (x *KeyValue) GetModRevision() (_ int64)    { return }
func (x *KeyValue) GetVersion() (_ int64)        { return }
