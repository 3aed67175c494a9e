// Package cmds is a stub of github.com/redis/rueidis/internal/cmds
// (rueidis v1.0.79): the command builder steps the fixtures use.
package cmds

// Builder builds commands by reusing CommandSlice from the sync.Pool
type Builder struct{ ks uint16 }

// Incomplete represents an incomplete Redis command. It should then be completed by calling Build().
type Incomplete struct{ ks uint16 }

// Completed represents a completed Redis command, should be created by the Build() of command builder.
type Completed struct{ ks uint16 }

type (
	Set                    Incomplete
	SetKey                 Incomplete
	SetValue               Incomplete
	SetConditionNx         Incomplete
	SetExpirationExSeconds Incomplete
	Get                    Incomplete
	GetKey                 Incomplete
	Del                    Incomplete
	DelKey                 Incomplete
	Incr                   Incomplete
	IncrKey                Incomplete
	Hset                   Incomplete
	HsetKey                Incomplete
	HsetFieldValue         Incomplete
	JsonGet                Incomplete
	JsonGetKey             Incomplete
	JsonGetPath            Incomplete
	JsonSet                Incomplete
	JsonSetKey             Incomplete
	JsonSetPath            Incomplete
	JsonSetValue           Incomplete
)

func (b Builder) Set() (c Set)                                    { return }
func (c Set) Key(key string) SetKey                               { return SetKey{} }
func (c SetKey) Value(value string) SetValue                      { return SetValue{} }
func (c SetValue) Nx() SetConditionNx                             { return SetConditionNx{} }
func (c SetValue) ExSeconds(seconds int64) SetExpirationExSeconds { return SetExpirationExSeconds{} }
func (c SetValue) Build() Completed                               { return Completed{} }
func (c SetConditionNx) ExSeconds(seconds int64) SetExpirationExSeconds {
	return SetExpirationExSeconds{}
}
func (c SetConditionNx) Build() Completed                                     { return Completed{} }
func (c SetExpirationExSeconds) Build() Completed                             { return Completed{} }
func (b Builder) Get() (c Get)                                                { return }
func (c Get) Key(key string) GetKey                                           { return GetKey{} }
func (c GetKey) Build() Completed                                             { return Completed{} }
func (b Builder) Del() (c Del)                                                { return }
func (c Del) Key(key ...string) DelKey                                        { return DelKey{} }
func (c DelKey) Build() Completed                                             { return Completed{} }
func (b Builder) Incr() (c Incr)                                              { return }
func (c Incr) Key(key string) IncrKey                                         { return IncrKey{} }
func (c IncrKey) Build() Completed                                            { return Completed{} }
func (b Builder) Hset() (c Hset)                                              { return }
func (c Hset) Key(key string) HsetKey                                         { return HsetKey{} }
func (c HsetKey) FieldValue() HsetFieldValue                                  { return HsetFieldValue{} }
func (c HsetFieldValue) FieldValue(field string, value string) HsetFieldValue { return c }
func (c HsetFieldValue) Build() Completed                                     { return Completed{} }
func (b Builder) JsonGet() (c JsonGet)                                        { return }
func (c JsonGet) Key(key string) JsonGetKey                                   { return JsonGetKey{} }
func (c JsonGetKey) Path(path ...string) JsonGetPath                          { return JsonGetPath{} }
func (c JsonGetPath) Build() Completed                                        { return Completed{} }
func (b Builder) JsonSet() (c JsonSet)                                        { return }
func (c JsonSet) Key(key string) JsonSetKey                                   { return JsonSetKey{} }
func (c JsonSetKey) Path(path string) JsonSetPath                             { return JsonSetPath{} }
func (c JsonSetPath) Value(value string) JsonSetValue                         { return JsonSetValue{} }
func (c JsonSetValue) Build() Completed                                       { return Completed{} }
