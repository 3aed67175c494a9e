package heldchecks

import (
	"database/sql"
	"log"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/gorilla/mux"
	"github.com/labstack/echo/v4"
	"k8s.io/client-go/tools/leaderelection"
)

// Orders serves writes on the leader only: a middleware checks the
// elector, then calls the handler it wraps, which writes after the check
// when another replica may lead by then.
type Orders struct {
	le *leaderelection.LeaderElector
	db *sql.DB
}

func (o *Orders) approve(w http.ResponseWriter, r *http.Request) {
	if _, err := o.db.ExecContext(r.Context(), `UPDATE orders SET state = 'approved' WHERE id = $1`, chi.URLParam(r, "id")); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

func (o *Orders) show(w http.ResponseWriter, r *http.Request) {
	_, _ = w.Write([]byte(mux.Vars(r)["id"]))
}

func (o *Orders) refund(c echo.Context) error {
	if _, err := o.db.ExecContext(c.Request().Context(), `UPDATE orders SET state = 'refunded' WHERE id = $1`, c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// leaderOnly is a net/http middleware, as chi and gorilla/mux take them.
func (o *Orders) leaderOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !o.le.IsLeader() { // want heldcheck:"guards the unfenced write next.ServeHTTP\\(Orders.approve\\)"
			http.Error(w, "not the leader", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// leaderForReads guards only read-only routes: nothing to fence.
func (o *Orders) leaderForReads(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !o.le.IsLeader() {
			http.Error(w, "not the leader", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// logged wraps the writing routes too, but checks nothing.
func logged(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.Printf("%s %s", r.Method, r.URL.Path)
		next.ServeHTTP(w, r)
	})
}

// leaderEcho is an echo middleware.
func (o *Orders) leaderEcho(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !o.le.IsLeader() { // want heldcheck:"guards the unfenced write next\\(Orders.refund\\)"
			return c.NoContent(http.StatusServiceUnavailable)
		}
		return next(c)
	}
}

// ChiRoutes uses the middleware on a chi group.
func (o *Orders) ChiRoutes() http.Handler {
	r := chi.NewRouter()
	r.Use(logged)
	r.Group(func(r chi.Router) {
		r.Use(o.leaderOnly)
		r.Post("/orders/{id}/approve", o.approve)
	})
	r.With(o.leaderForReads).Get("/orders/{id}", o.show)
	return r
}

// GorillaRoutes uses the read-only guard on a subrouter.
func (o *Orders) GorillaRoutes() http.Handler {
	r := mux.NewRouter()
	r.Use(mux.MiddlewareFunc(logged))
	reads := r.PathPrefix("/status").Subrouter()
	reads.Use(o.leaderForReads)
	reads.HandleFunc("/orders/{id}", o.show)
	return r
}

// EchoRoutes uses the middleware on an echo group.
func (o *Orders) EchoRoutes() *echo.Echo {
	e := echo.New()
	admin := e.Group("/admin", o.leaderEcho)
	admin.POST("/orders/:id/refund", o.refund)
	return e
}

// Admin keeps its gorilla/mux router in a field: the middleware is added
// in one method, the routes in another, and gorilla/mux wraps them all.
type Admin struct {
	o *Orders
	r *mux.Router
}

func (a *Admin) leaderAdmin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.o.le.IsLeader() { // want heldcheck:"guards the unfenced write next.ServeHTTP\\(Orders.approve\\)"
			http.Error(w, "not the leader", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (a *Admin) Middlewares() { a.r.Use(a.leaderAdmin) }

func (a *Admin) Routes() {
	a.r.HandleFunc("/orders/{id}/approve", a.o.approve).Methods(http.MethodPost)
}
