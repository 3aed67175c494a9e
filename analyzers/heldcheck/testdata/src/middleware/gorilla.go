package middleware

import (
	"net/http"

	"github.com/gorilla/mux"
)

// archive writes an order's state.
func (a *API) archive(w http.ResponseWriter, r *http.Request) {
	if _, err := a.db.ExecContext(r.Context(), `UPDATE orders SET state = 'archived' WHERE id = $1`, mux.Vars(r)["id"]); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// leaderSub guards the subrouter it is used on, whose routes gorilla wraps
// whether they were added before or after it.
func (a *API) leaderSub(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.le.IsLeader() { // want `guards the unfenced write next.ServeHTTP\(API.archive\)`
			http.Error(w, "not the leader", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// leaderReads guards a router that only reads.
func (a *API) leaderReads(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.le.IsLeader() {
			http.Error(w, "not the leader", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Gorilla wires the handlers with gorilla/mux.
func (a *API) Gorilla() http.Handler {
	r := mux.NewRouter()
	api := r.PathPrefix("/api").Subrouter()
	api.HandleFunc("/orders/{id}/archive", a.archive).Methods(http.MethodPost)
	api.Use(a.leaderSub)
	reads := r.PathPrefix("/status").Subrouter()
	reads.Use(a.leaderReads)
	reads.HandleFunc("/orders/{id}", a.show)
	return r
}
