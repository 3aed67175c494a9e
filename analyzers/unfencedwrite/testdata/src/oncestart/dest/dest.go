// Package dest is a destination that starts its streaming worker lazily,
// on first use, and a pump that its owner starts and stops.
package dest

import (
	"database/sql"
	"sync"
	"sync/atomic"
)

// Proxy hands out a destination's database once its stream runs.
type Proxy struct {
	db      *sql.DB
	started atomic.Bool
}

// New makes a proxy whose stream has not started.
func New(db *sql.DB) *Proxy { return &Proxy{db: db} }

// stream sends the queued events for the life of the process.
func (p *Proxy) stream() {
	for {
		p.db.Exec(`UPDATE events SET sent = true WHERE sent = false`)
	}
}

// start runs the stream and marks it started; nothing resets the flag.
func (p *Proxy) start() {
	go p.stream()
	p.started.Store(true)
}

// Get starts the stream on first use: at most once per proxy.
func (p *Proxy) Get() (*sql.DB, bool) {
	if !p.started.Load() {
		p.start()
		return nil, false
	}
	return p.db, true
}

// Registry keeps the process's proxies.
type Registry struct {
	mu   sync.RWMutex
	byID map[string]*Proxy
}

// ByID looks a proxy up: the same one on every call.
func (r *Registry) ByID(id string) (*Proxy, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	p, ok := r.byID[id]
	return p, ok
}

// Pump copies rows while it runs; Stop resets its flag, so each Start
// after a Stop starts a new copier.
type Pump struct {
	mu      sync.Mutex
	db      *sql.DB
	running bool
}

func (p *Pump) copyRows() {
	p.db.Exec(`INSERT INTO copies SELECT * FROM rows`)
}

// Start starts the copier unless it runs.
func (p *Pump) Start() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running {
		return
	}
	p.running = true
	go p.copyRows()
}

// Stop lets the next Start start another copier.
func (p *Pump) Stop() {
	p.mu.Lock()
	p.running = false
	p.mu.Unlock()
}

// Destination is what the application's registries hand out.
type Destination interface {
	Get() (*sql.DB, bool)
}

// Source opens a database: a lazy proxy, or a direct one that marks
// itself opened on each call.
type Source interface {
	Open() *sql.DB
}

// Open is Get for a Source.
func (p *Proxy) Open() *sql.DB {
	db, _ := p.Get()
	return db
}

// Direct writes on every Open.
type Direct struct{ db *sql.DB }

func (d *Direct) Open() *sql.DB {
	d.db.Exec(`UPDATE sources SET opened = now()`)
	return d.db
}

// Catalog keeps the process's destinations and sources.
type Catalog struct {
	dests   map[string]Destination
	sources map[string]Source
}

// NewCatalog registers the proxies and a direct source.
func NewCatalog(db *sql.DB, ids []string) *Catalog {
	c := &Catalog{dests: make(map[string]Destination), sources: make(map[string]Source)}
	for _, id := range ids {
		c.dests[id] = New(db)
		c.sources[id] = New(db)
	}
	c.sources["direct"] = &Direct{db: db}
	return c
}

// Destination looks a destination up.
func (c *Catalog) Destination(id string) (Destination, bool) {
	d, ok := c.dests[id]
	return d, ok
}

// Source looks a source up.
func (c *Catalog) Source(id string) Source { return c.sources[id] }
