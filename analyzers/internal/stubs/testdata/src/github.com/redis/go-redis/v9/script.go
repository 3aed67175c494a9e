package redis

import "context"

type Scripter interface {
	Eval(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd
	EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd
	EvalRO(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd
	EvalShaRO(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd
	ScriptExists(ctx context.Context, hashes ...string) *BoolSliceCmd
	ScriptLoad(ctx context.Context, script string) *StringCmd
}

type Script struct {
	src  string
	hash string
}

func NewScript(src string) *Script { return &Script{src: src} }

func (s *Script) Hash() string                                             { return s.hash }
func (s *Script) Load(ctx context.Context, c Scripter) (_ *StringCmd)      { return }
func (s *Script) Exists(ctx context.Context, c Scripter) (_ *BoolSliceCmd) { return }
func (s *Script) Eval(ctx context.Context, c Scripter, keys []string, args ...interface{}) (_ *Cmd) {
	return
}
func (s *Script) EvalSha(ctx context.Context, c Scripter, keys []string, args ...interface{}) (_ *Cmd) {
	return
}
func (s *Script) Run(ctx context.Context, c Scripter, keys []string, args ...interface{}) (_ *Cmd) {
	return
}
func (s *Script) RunRO(ctx context.Context, c Scripter, keys []string, args ...interface{}) (_ *Cmd) {
	return
}
