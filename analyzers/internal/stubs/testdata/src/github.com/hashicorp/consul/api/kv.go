package api

type KVPair struct {
	Key         string
	CreateIndex uint64
	ModifyIndex uint64
	LockIndex   uint64
	Flags       uint64
	Value       []byte
	Session     string
	Namespace   string `json:",omitempty"`
	Partition   string `json:",omitempty"`
}

type KVPairs []*KVPair

type KV struct {
	c *Client
}

func (c *Client) KV() *KV { return &KV{c} }

func (k *KV) Get(key string, q *QueryOptions) (_ *KVPair, _ *QueryMeta, _ error)     { return }
func (k *KV) List(prefix string, q *QueryOptions) (_ KVPairs, _ *QueryMeta, _ error) { return }
func (k *KV) Put(p *KVPair, q *WriteOptions) (_ *WriteMeta, _ error)                 { return }
func (k *KV) CAS(p *KVPair, q *WriteOptions) (_ bool, _ *WriteMeta, _ error)         { return }
func (k *KV) Acquire(p *KVPair, q *WriteOptions) (_ bool, _ *WriteMeta, _ error)     { return }
func (k *KV) Release(p *KVPair, q *WriteOptions) (_ bool, _ *WriteMeta, _ error)     { return }
func (k *KV) Delete(key string, w *WriteOptions) (_ *WriteMeta, _ error)             { return }
func (k *KV) DeleteCAS(p *KVPair, q *WriteOptions) (_ bool, _ *WriteMeta, _ error)   { return }
func (k *KV) DeleteTree(prefix string, w *WriteOptions) (_ *WriteMeta, _ error)      { return }

func (k *KV) Txn(txn KVTxnOps, q *QueryOptions) (_ bool, _ *KVTxnResponse, _ *QueryMeta, _ error) {
	return
}
