package redis

import "context"

type Pipeline struct {
	cmdable
	statefulCmdable
	cmds []Cmder
}

func (c *Pipeline) Len() int                                             { return len(c.cmds) }
func (c *Pipeline) Do(ctx context.Context, args ...interface{}) (_ *Cmd) { return }
func (c *Pipeline) Process(ctx context.Context, cmd Cmder) (_ error)     { return }
func (c *Pipeline) Discard()                                             {}
func (c *Pipeline) Exec(ctx context.Context) (_ []Cmder, _ error)        { return }
func (c *Pipeline) Cmds() []Cmder                                        { return c.cmds }
func (c *Pipeline) Pipelined(ctx context.Context, fn func(Pipeliner) error) (_ []Cmder, _ error) {
	return
}
func (c *Pipeline) Pipeline() Pipeliner { return c }
func (c *Pipeline) TxPipelined(ctx context.Context, fn func(Pipeliner) error) (_ []Cmder, _ error) {
	return
}
func (c *Pipeline) TxPipeline() Pipeliner { return c }

var (
	_ Pipeliner       = (*Pipeline)(nil)
	_ UniversalClient = (*Client)(nil)
	_ Cmdable         = (*Tx)(nil)
	_ Scripter        = (*Client)(nil)
)
