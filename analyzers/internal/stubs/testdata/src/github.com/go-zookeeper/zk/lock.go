package zk

type Lock struct {
	c        *Conn
	path     string
	acl      []ACL
	lockPath string
	seq      int
}

func NewLock(c *Conn, path string, acl []ACL) *Lock { return &Lock{c: c, path: path, acl: acl} }

func (l *Lock) Lock() error                    { panic("stub") }
func (l *Lock) LockWithData(data []byte) error { panic("stub") }
func (l *Lock) Unlock() error                  { panic("stub") }
