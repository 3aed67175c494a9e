package rueidislocks

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidislock"
)

// projector keeps RedisJSON read models of a journal, one projection at a
// time under a rueidislock lock, writing through the rueidis client.
type projector struct {
	locker rueidislock.Locker
	rd     rueidis.Client
}

type state struct {
	Position int64 `json:"position"`
}

// advance reads the projection's position, applies what follows it and
// writes the new position back: a stale holder moves it backwards.
func (p *projector) advance(ctx context.Context, name string, applied int64) error {
	ctx, cancel, err := p.locker.WithContext(ctx, "projection:"+name)
	if err != nil {
		return err
	}
	defer cancel()
	key := fmt.Sprintf("projection:state:%s", name)
	var st state
	if err := p.rd.Do(ctx, p.rd.B().JsonGet().Key(key).Path(".").Build()).DecodeJSON(&st); err != nil && !rueidis.IsRedisNil(err) {
		return err
	}
	st.Position += applied
	val, err := json.Marshal(&st)
	if err != nil {
		return err
	}
	cmd := p.rd.B().JsonSet().Key(key).Path(".").Value(string(val)).Build()
	return p.rd.Do(ctx, cmd).Error() // want `Do JSON.SET writes to Redis without a fencing token while the rueidislock lock taken by Locker.WithContext \(line 26\) is held`
}

// reset clears the projection under the lock: a DEL and a counter bump.
func (p *projector) reset(ctx context.Context, name string) error {
	ctx, cancel, err := p.locker.WithContext(ctx, "projection:"+name)
	if err != nil {
		return err
	}
	defer cancel()
	if err := p.rd.Do(ctx, p.rd.B().Del().Key("projection:state:"+name).Build()).Error(); err != nil { // want `Do DEL writes to Redis without a fencing token`
		return err
	}
	return p.rd.Do(ctx, p.rd.B().Hset().Key("projection:resets").FieldValue().FieldValue(name, "1").Build()).Error() // want `Do HSET writes to Redis without a fencing token`
}

// seed creates the projection's state once: SET NX fails on a stale
// holder's repeat, and reads change nothing.
func (p *projector) seed(ctx context.Context, name string) error {
	ctx, cancel, err := p.locker.WithContext(ctx, "projection:"+name)
	if err != nil {
		return err
	}
	defer cancel()
	if _, err := p.rd.Do(ctx, p.rd.B().Get().Key("projection:state:"+name).Build()).ToString(); err == nil {
		return nil
	}
	return p.rd.Do(ctx, p.rd.B().Set().Key("projection:state:"+name).Value(`{"position":0}`).Nx().Build()).Error()
}

// announce publishes under no lock: nothing to report.
func (p *projector) announce(ctx context.Context, name string) error {
	return p.rd.Do(ctx, p.rd.B().JsonSet().Key("projection:last").Path(".").Value(`"`+name+`"`).Build()).Error()
}

// markSeen claims an event id with SET NX and an expiry, then records it
// under no lock: through rueidis a SET NX is a create-only write, not a
// hand-rolled lock whose region the record would be in.
func (p *projector) markSeen(ctx context.Context, id string) error {
	claim := p.rd.B().Set().Key("seen:" + id).Value("1").Nx().ExSeconds(60).Build()
	if err := p.rd.Do(ctx, claim).Error(); err != nil {
		return err
	}
	return p.rd.Do(ctx, p.rd.B().JsonSet().Key("projection:last-seen").Path(".").Value(`"`+id+`"`).Build()).Error()
}
