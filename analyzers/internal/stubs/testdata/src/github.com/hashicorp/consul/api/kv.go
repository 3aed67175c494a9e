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

func (k *KV) Get(key string, q *QueryOptions) (*KVPair, *QueryMeta, error)     { panic("stub") }
func (k *KV) List(prefix string, q *QueryOptions) (KVPairs, *QueryMeta, error) { panic("stub") }
func (k *KV) Put(p *KVPair, q *WriteOptions) (*WriteMeta, error)               { panic("stub") }
func (k *KV) CAS(p *KVPair, q *WriteOptions) (bool, *WriteMeta, error)         { panic("stub") }
func (k *KV) Acquire(p *KVPair, q *WriteOptions) (bool, *WriteMeta, error)     { panic("stub") }
func (k *KV) Release(p *KVPair, q *WriteOptions) (bool, *WriteMeta, error)     { panic("stub") }
func (k *KV) Delete(key string, w *WriteOptions) (*WriteMeta, error)           { panic("stub") }
func (k *KV) DeleteCAS(p *KVPair, q *WriteOptions) (bool, *WriteMeta, error)   { panic("stub") }
func (k *KV) DeleteTree(prefix string, w *WriteOptions) (*WriteMeta, error)    { panic("stub") }

func (k *KV) Txn(txn KVTxnOps, q *QueryOptions) (bool, *KVTxnResponse, *QueryMeta, error) {
	panic("stub")
}
