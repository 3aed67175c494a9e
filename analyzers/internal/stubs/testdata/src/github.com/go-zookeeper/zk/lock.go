package zk

type Lock struct {
	c        *Conn
	path     string
	acl      []ACL
	lockPath string
	seq      int
}

func NewLock(c *Conn, path string, acl []ACL) *Lock { return &Lock{c: c, path: path, acl: acl} }

func (l *Lock) Lock() (_ error)                    { return }
func (l *Lock) LockWithData(data []byte) (_ error) { return }
func (l *Lock) Unlock() (_ error)                  { return }
