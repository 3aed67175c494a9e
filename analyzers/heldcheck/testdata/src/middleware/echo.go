package middleware

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"k8s.io/client-go/tools/leaderelection"
)

// refund writes an order's state.
func (a *API) refund(c echo.Context) error {
	if _, err := a.db.ExecContext(c.Request().Context(), `UPDATE orders SET state = 'refunded' WHERE id = $1`, c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// status only reads.
func (a *API) status(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"id": c.Param("id")})
}

// LeaderOnly makes an echo middleware that serves on the leader only.
func LeaderOnly(le *leaderelection.LeaderElector) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if !le.IsLeader() { // want `guards the unfenced write next\(API.refund\)`
				return c.NoContent(http.StatusServiceUnavailable)
			}
			return next(c)
		}
	}
}

// leaderRoute is given as one route's middleware.
func (a *API) leaderRoute(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !a.le.IsLeader() { // want `guards the unfenced write next\(API.refund\)`
			return c.NoContent(http.StatusServiceUnavailable)
		}
		return next(c)
	}
}

// leaderLate is used on a group after its writing route was added: echo
// does not run it for that route.
func (a *API) leaderLate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !a.le.IsLeader() {
			return c.NoContent(http.StatusServiceUnavailable)
		}
		return next(c)
	}
}

// voidHandler makes the handler that voids an order.
func (a *API) voidHandler() echo.HandlerFunc {
	return func(c echo.Context) error {
		_, err := a.db.ExecContext(c.Request().Context(), `UPDATE orders SET state = 'void' WHERE id = $1`, c.Param("id"))
		return err
	}
}

// leaderVoid guards the handler voidHandler makes.
func (a *API) leaderVoid(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !a.le.IsLeader() { // want `guards the unfenced write next\(func literal\)`
			return c.NoContent(http.StatusServiceUnavailable)
		}
		return next(c)
	}
}

// auditLog checks nothing.
func auditLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		c.Request().Header.Set("X-Audited", "1")
		return err
	}
}

// Echo wires the handlers with echo.
func (a *API) Echo() *echo.Echo {
	e := echo.New()
	e.Use(auditLog)
	admin := e.Group("/admin", LeaderOnly(a.le))
	admin.POST("/orders/:id/refund", a.refund)
	e.POST("/orders/:id/refund", a.refund, a.leaderRoute)
	e.GET("/orders/:id", a.status, a.leaderRoute)
	e.POST("/orders/:id/void", a.voidHandler(), a.leaderVoid)
	late := e.Group("/late")
	late.POST("/orders/:id/refund", a.refund)
	late.Use(a.leaderLate)
	late.GET("/orders/:id", a.status)
	return e
}
