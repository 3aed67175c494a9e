// Package redis is a stub of github.com/redis/go-redis/v9 v9.23.0 for
// analysistest fixtures. It keeps the real shape: commands are methods of
// the unexported func type cmdable, which Client and Tx embed, and the
// *Cmdable interfaces, UniversalClient and Pipeliner list them again.
package redis

import (
	"context"
	"time"
)

type Cmder interface {
	Name() string
	FullName() string
	Args() []interface{}
	String() string
	SetErr(error)
	Err() error
}

type baseCmd struct {
	ctx  context.Context
	args []interface{}
	err  error
}

func (cmd *baseCmd) Name() (_ string)     { return }
func (cmd *baseCmd) FullName() (_ string) { return }
func (cmd *baseCmd) Args() []interface{}  { return cmd.args }
func (cmd *baseCmd) SetErr(e error)       { cmd.err = e }
func (cmd *baseCmd) Err() error           { return cmd.err }

type Cmd struct {
	baseCmd
	val interface{}
}

func (cmd *Cmd) String() (_ string)           { return }
func (cmd *Cmd) Val() interface{}             { return cmd.val }
func (cmd *Cmd) Result() (interface{}, error) { return cmd.val, cmd.err }
func (cmd *Cmd) Text() (_ string, _ error)    { return }
func (cmd *Cmd) Int() (_ int, _ error)        { return }
func (cmd *Cmd) Int64() (_ int64, _ error)    { return }
func (cmd *Cmd) Bool() (_ bool, _ error)      { return }

type StatusCmd struct {
	baseCmd
	val string
}

func (cmd *StatusCmd) String() (_ string)      { return }
func (cmd *StatusCmd) Val() string             { return cmd.val }
func (cmd *StatusCmd) Result() (string, error) { return cmd.val, cmd.err }

type IntCmd struct {
	baseCmd
	val int64
}

func (cmd *IntCmd) String() (_ string)     { return }
func (cmd *IntCmd) Val() int64             { return cmd.val }
func (cmd *IntCmd) Result() (int64, error) { return cmd.val, cmd.err }

type DurationCmd struct {
	baseCmd
	val time.Duration
}

func (cmd *DurationCmd) String() (_ string)             { return }
func (cmd *DurationCmd) Val() time.Duration             { return cmd.val }
func (cmd *DurationCmd) Result() (time.Duration, error) { return cmd.val, cmd.err }

type BoolCmd struct {
	baseCmd
	val bool
}

func (cmd *BoolCmd) String() (_ string)    { return }
func (cmd *BoolCmd) Val() bool             { return cmd.val }
func (cmd *BoolCmd) Result() (bool, error) { return cmd.val, cmd.err }

type StringCmd struct {
	baseCmd
	val string
}

func (cmd *StringCmd) String() (_ string)         { return }
func (cmd *StringCmd) Val() string                { return cmd.val }
func (cmd *StringCmd) Result() (string, error)    { return cmd.val, cmd.err }
func (cmd *StringCmd) Bool() (_ bool, _ error)    { return }
func (cmd *StringCmd) Int() (_ int, _ error)      { return }
func (cmd *StringCmd) Bytes() (_ []byte, _ error) { return }
func (cmd *StringCmd) Int64() (_ int64, _ error)  { return }

type ZSliceCmd struct {
	baseCmd
	val []Z
}

func (cmd *ZSliceCmd) String() (_ string)   { return }
func (cmd *ZSliceCmd) Val() []Z             { return cmd.val }
func (cmd *ZSliceCmd) Result() ([]Z, error) { return cmd.val, cmd.err }

type StringSliceCmd struct {
	baseCmd
	val []string
}

func (cmd *StringSliceCmd) String() (_ string)        { return }
func (cmd *StringSliceCmd) Val() []string             { return cmd.val }
func (cmd *StringSliceCmd) Result() ([]string, error) { return cmd.val, cmd.err }

type BoolSliceCmd struct {
	baseCmd
	val []bool
}

func (cmd *BoolSliceCmd) String() (_ string)      { return }
func (cmd *BoolSliceCmd) Val() []bool             { return cmd.val }
func (cmd *BoolSliceCmd) Result() ([]bool, error) { return cmd.val, cmd.err }

type MapStringStringCmd struct {
	baseCmd
	val map[string]string
}

func (cmd *MapStringStringCmd) String() (_ string)                 { return }
func (cmd *MapStringStringCmd) Val() map[string]string             { return cmd.val }
func (cmd *MapStringStringCmd) Result() (map[string]string, error) { return cmd.val, cmd.err }

type FloatCmd struct {
	baseCmd
	val float64
}

func (cmd *FloatCmd) String() (_ string)       { return }
func (cmd *FloatCmd) Val() float64             { return cmd.val }
func (cmd *FloatCmd) Result() (float64, error) { return cmd.val, cmd.err }
