package tokenflow // want package:"lease facts"

import "github.com/hashicorp/consul/api"

func consulSources(c *api.Client, key string) {
	sid, _, err := c.Session().Create(&api.SessionEntry{TTL: "10s"}, nil)
	if err != nil {
		return
	}
	probe(sid) // want `not-ordered Session.Create\(\)`
	ok, _, err := c.KV().Acquire(&api.KVPair{Key: key, Session: sid}, nil)
	if err != nil || !ok {
		return
	}
	pair, _, err := c.KV().Get(key, nil)
	if err != nil || pair == nil {
		return
	}
	probe(pair.ModifyIndex) // want `monotonic KV.Get\(\).ModifyIndex`
	probe(pair.CreateIndex) // want `monotonic KV.Get\(\).CreateIndex`
	probe(pair.LockIndex)   // want `late-drawn KV.Get\(\).LockIndex`
	c.KV().Release(&api.KVPair{Key: key, Session: sid}, nil)
}

// checkedLockIndex compares the pair's session: its LockIndex is this
// holder's.
func checkedLockIndex(c *api.Client, key, sid string) {
	ok, _, err := c.KV().Acquire(&api.KVPair{Key: key, Session: sid}, nil)
	if err != nil || !ok {
		return
	}
	pair, _, err := c.KV().Get(key, nil)
	if err != nil || pair == nil || pair.Session != sid {
		return
	}
	probe(pair.LockIndex) // want `monotonic KV.Get\(\).LockIndex`
	c.KV().Release(&api.KVPair{Key: key, Session: sid}, nil)
}
