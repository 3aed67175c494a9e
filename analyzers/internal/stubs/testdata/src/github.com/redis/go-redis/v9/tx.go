package redis

import "context"

type Tx struct {
	baseClient
	cmdable
	statefulCmdable
}

func (c *Tx) Process(ctx context.Context, cmd Cmder) (_ error)           { return }
func (c *Tx) Close(ctx context.Context) (_ error)                        { return }
func (c *Tx) Watch(ctx context.Context, keys ...string) (_ *StatusCmd)   { return }
func (c *Tx) Unwatch(ctx context.Context, keys ...string) (_ *StatusCmd) { return }
func (c *Tx) Pipeline() (_ Pipeliner)                                    { return }
func (c *Tx) Pipelined(ctx context.Context, fn func(Pipeliner) error) (_ []Cmder, _ error) {
	return
}
func (c *Tx) TxPipelined(ctx context.Context, fn func(Pipeliner) error) (_ []Cmder, _ error) {
	return
}
func (c *Tx) TxPipeline() (_ Pipeliner) { return }
