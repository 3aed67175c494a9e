package clientv3

type Op struct {
	key     []byte
	val     []byte
	leaseID LeaseID
	cmps    []Cmp
	thenOps []Op
	elseOps []Op
}

func OpGet(key string, opts ...OpOption) Op           { panic("stub") }
func OpDelete(key string, opts ...OpOption) Op        { panic("stub") }
func OpPut(key, val string, opts ...OpOption) Op      { panic("stub") }
func OpTxn(cmps []Cmp, thenOps []Op, elseOps []Op) Op { panic("stub") }
func (op Op) KeyBytes() []byte                        { return op.key }
func (op Op) ValueBytes() []byte                      { return op.val }

type OpOption func(*Op)

func WithLease(leaseID LeaseID) OpOption { panic("stub") }
func WithPrefix() OpOption               { panic("stub") }
func WithRev(rev int64) OpOption         { panic("stub") }
func WithPrevKV() OpOption               { panic("stub") }
func WithIgnoreLease() OpOption          { panic("stub") }
