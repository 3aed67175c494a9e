// Package middleware serves an API whose writes only the leader may make:
// a middleware checks the elector, then hands the request to the handler
// it wraps. The handler writes after the check, when another replica may
// lead. Each file wires it with one router: echo, chi, gorilla/mux, and
// net/http alone.
package middleware

import (
	"database/sql"
	"encoding/json"
	"log"
	"net/http"

	"k8s.io/client-go/tools/leaderelection"
)

type API struct {
	le *leaderelection.LeaderElector
	db *sql.DB
}

// approve writes an order's state.
func (a *API) approve(w http.ResponseWriter, r *http.Request) {
	if _, err := a.db.ExecContext(r.Context(), `UPDATE orders SET state = 'approved' WHERE id = $1`, r.PathValue("id")); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// show only reads.
func (a *API) show(w http.ResponseWriter, r *http.Request) {
	_ = json.NewEncoder(w).Encode(map[string]string{"id": r.PathValue("id")})
}

// leaderOnly answers from the elector's cached view; the handler writes
// later.
func (a *API) leaderOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.le.IsLeader() { // want `LeaderElector.IsLeader only tells that the lease was held when it ran, yet it guards the unfenced write next.ServeHTTP\(API.approve\)`
			http.Error(w, "not the leader", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// leaderForReads guards read-only handlers: nothing to fence.
func (a *API) leaderForReads(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.le.IsLeader() {
			http.Error(w, "not the leader", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// logged wraps writing handlers too, but checks nothing.
func logged(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.Printf("%s %s", r.Method, r.URL.Path)
		next.ServeHTTP(w, r)
	})
}

// authenticated checks a header, not a lease.
func authenticated(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// leaderHeader only labels the answer: the handler runs on every
// replica, whatever the check says.
func (a *API) leaderHeader(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a.le.IsLeader() {
			w.Header().Set("X-Leader", "true")
		}
		next.ServeHTTP(w, r)
	})
}

// ServeStd wires the handlers with net/http alone: each middleware is
// applied to the handler it wraps.
func (a *API) ServeStd(addr string) error {
	mux := http.NewServeMux()
	mux.Handle("POST /orders/{id}/approve", logged(authenticated(a.leaderOnly(http.HandlerFunc(a.approve)))))
	mux.Handle("GET /orders/{id}", a.leaderForReads(http.HandlerFunc(a.show)))
	mux.Handle("POST /orders/{id}/reapprove", a.leaderHeader(http.HandlerFunc(a.approve)))
	return http.ListenAndServe(addr, mux)
}

// leaderAll wraps a whole mux.
func (a *API) leaderAll(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.le.IsLeader() { // want `guards the unfenced write next.ServeHTTP\(API.approve\)`
			http.Error(w, "not the leader", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ServeLeader serves every route of its mux on the leader only.
func (a *API) ServeLeader(addr string) error {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /orders/{id}/approve", a.approve)
	return http.ListenAndServe(addr, a.leaderAll(http.StripPrefix("/api", mux)))
}
