package api

type Txn struct {
	c *Client
}

func (c *Client) Txn() *Txn { return &Txn{c} }

type TxnOp struct {
	KV *KVTxnOp
}

type TxnOps []*TxnOp

type TxnResult struct {
	KV *KVPair
}

type TxnResults []*TxnResult

type TxnError struct {
	OpIndex int
	What    string
}

type TxnErrors []*TxnError

type TxnResponse struct {
	Results TxnResults
	Errors  TxnErrors
}

type KVOp string

const (
	KVSet            KVOp = "set"
	KVDelete         KVOp = "delete"
	KVDeleteCAS      KVOp = "delete-cas"
	KVDeleteTree     KVOp = "delete-tree"
	KVCAS            KVOp = "cas"
	KVLock           KVOp = "lock"
	KVUnlock         KVOp = "unlock"
	KVGet            KVOp = "get"
	KVGetOrEmpty     KVOp = "get-or-empty"
	KVGetTree        KVOp = "get-tree"
	KVCheckSession   KVOp = "check-session"
	KVCheckIndex     KVOp = "check-index"
	KVCheckNotExists KVOp = "check-not-exists"
)

type KVTxnOp struct {
	Verb      KVOp
	Key       string
	Value     []byte
	Flags     uint64
	Index     uint64
	Session   string
	Namespace string `json:",omitempty"`
	Partition string `json:",omitempty"`
}

type KVTxnOps []*KVTxnOp

type KVTxnResponse struct {
	Results []*KVPair
	Errors  TxnErrors
}

func (t *Txn) Txn(txn TxnOps, q *QueryOptions) (_ bool, _ *TxnResponse, _ *QueryMeta, _ error) {
	return
}
