package middleware

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// cancel writes an order's state.
func (a *API) cancel(w http.ResponseWriter, r *http.Request) {
	if _, err := a.db.ExecContext(r.Context(), `UPDATE orders SET state = 'cancelled' WHERE id = $1`, chi.URLParam(r, "id")); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// leaderWith guards the routes made with it by With.
func (a *API) leaderWith(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.le.IsLeader() { // want `guards the unfenced write next.ServeHTTP\(API.cancel\)`
			http.Error(w, "not the leader", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// leaderGroup guards the routes of the group it is used in.
func (a *API) leaderGroup(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.le.IsLeader() { // want `guards the unfenced write next.ServeHTTP\(API.cancel\)`
			http.Error(w, "not the leader", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// leaderStatus guards a group of read-only routes.
func (a *API) leaderStatus(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.le.IsLeader() {
			http.Error(w, "not the leader", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Chi wires the handlers with chi.
func (a *API) Chi() http.Handler {
	r := chi.NewRouter()
	r.Use(logged)
	r.With(a.leaderWith).Post("/orders/{id}/cancel", a.cancel)
	r.Group(func(r chi.Router) {
		r.Use(a.leaderGroup)
		r.Delete("/orders/{id}", a.cancel)
	})
	r.Route("/status", func(r chi.Router) {
		r.Use(a.leaderStatus)
		r.Get("/{id}", a.show)
	})
	return r
}

// leaderOuter is used on the router whose Route func registers a writing
// route.
func (a *API) leaderOuter(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.le.IsLeader() { // want `guards the unfenced write next.ServeHTTP\(API.cancel\)`
			http.Error(w, "not the leader", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// leaderOuterReads is used on a router whose Group func registers only
// reads.
func (a *API) leaderOuterReads(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.le.IsLeader() {
			http.Error(w, "not the leader", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ChiNested registers its routes in Route and Group funcs.
func (a *API) ChiNested() http.Handler {
	r := chi.NewRouter()
	r.Use(a.leaderOuter)
	r.Route("/v2", func(r chi.Router) {
		r.Post("/orders/{id}/cancel", a.cancel)
	})
	reads := chi.NewRouter()
	reads.Use(a.leaderOuterReads)
	reads.Group(func(r chi.Router) {
		r.Get("/orders/{id}", a.show)
	})
	r.Mount("/reads", reads)
	return r
}
