package redis

import "context"

type Tx struct {
	baseClient
	cmdable
	statefulCmdable
}

func (c *Tx) Process(ctx context.Context, cmd Cmder) error           { panic("stub") }
func (c *Tx) Close(ctx context.Context) error                        { panic("stub") }
func (c *Tx) Watch(ctx context.Context, keys ...string) *StatusCmd   { panic("stub") }
func (c *Tx) Unwatch(ctx context.Context, keys ...string) *StatusCmd { panic("stub") }
func (c *Tx) Pipeline() Pipeliner                                    { panic("stub") }
func (c *Tx) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	panic("stub")
}
func (c *Tx) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	panic("stub")
}
func (c *Tx) TxPipeline() Pipeliner { panic("stub") }
