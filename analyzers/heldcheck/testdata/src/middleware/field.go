package middleware

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/labstack/echo/v4"
)

// Server keeps its routers in fields: the middlewares are added in one
// method and the routes in another. echo's and gorilla/mux's Use wrap
// every route of their router, whenever it was added.
type Server struct {
	api    *API
	e      *echo.Echo
	status *mux.Router
}

// leaderServer guards the echo router's routes.
func (s *Server) leaderServer(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !s.api.le.IsLeader() { // want `guards the unfenced write next\(API.refund\)`
			return c.NoContent(http.StatusServiceUnavailable)
		}
		return next(c)
	}
}

// leaderStatusRoutes guards a router of reads.
func (s *Server) leaderStatusRoutes(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.api.le.IsLeader() {
			http.Error(w, "not the leader", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) middlewares() {
	s.e.Use(s.leaderServer)
	s.status.Use(s.leaderStatusRoutes)
}

func (s *Server) routes() {
	s.e.POST("/orders/:id/refund", s.api.refund)
	s.status.HandleFunc("/orders/{id}", s.api.show)
}
