package clientv3

type Op struct {
	key     []byte
	val     []byte
	leaseID LeaseID
	cmps    []Cmp
	thenOps []Op
	elseOps []Op
}

func OpGet(key string, opts ...OpOption) (_ Op)           { return }
func OpDelete(key string, opts ...OpOption) (_ Op)        { return }
func OpPut(key, val string, opts ...OpOption) (_ Op)      { return }
func OpTxn(cmps []Cmp, thenOps []Op, elseOps []Op) (_ Op) { return }
func (op Op) KeyBytes() []byte                            { return op.key }
func (op Op) ValueBytes() []byte                          { return op.val }

type OpOption func(*Op)

func WithLease(leaseID LeaseID) (_ OpOption) { return }
func WithPrefix() (_ OpOption)               { return }
func WithRev(rev int64) (_ OpOption)         { return }
func WithPrevKV() (_ OpOption)               { return }
func WithIgnoreLease() (_ OpOption)          { return }

// The options a lock recipe reads its predecessors with.
func WithMaxModRev(rev int64) (_ OpOption)    { return }
func WithMaxCreateRev(rev int64) (_ OpOption) { return }
func WithFirstCreate() (_ []OpOption)         { return }
func WithLastCreate() (_ []OpOption)          { return }
func WithLastRev() (_ []OpOption)             { return }

func (op Op) IsTxn() bool                   { return op.cmps != nil }
func (op Op) Txn() ([]Cmp, []Op, []Op)      { return op.cmps, op.thenOps, op.elseOps }
func (op *Op) WithKeyBytes(keyBytes []byte) { op.key = keyBytes }
