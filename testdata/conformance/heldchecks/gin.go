package heldchecks

import (
	"database/sql"
	"net/http"

	"github.com/gin-gonic/gin"
	"k8s.io/client-go/tools/leaderelection"
)

// API serves writes on the leader only: a gin middleware checks the
// elector, then c.Next() runs the handlers registered after it.
type API struct {
	le *leaderelection.LeaderElector
	db *sql.DB
}

// leaderOnly answers from the elector's cached view; by the time the
// handler writes, another replica may lead.
func (a *API) leaderOnly(c *gin.Context) {
	if !a.le.IsLeader() { // want heldcheck:"guards the unfenced write Context.Next"
		c.AbortWithStatus(http.StatusServiceUnavailable)
		return
	}
	c.Next()
}

// leaderForReads guards read-only routes: nothing to fence.
func (a *API) leaderForReads(c *gin.Context) {
	if !a.le.IsLeader() {
		c.AbortWithStatus(http.StatusServiceUnavailable)
		return
	}
	c.Next()
}

func (a *API) approve(c *gin.Context) {
	if _, err := a.db.ExecContext(c.Request.Context(), `UPDATE orders SET state = 'approved' WHERE id = $1`, c.Param("id")); err != nil {
		c.AbortWithStatus(http.StatusInternalServerError)
	}
}

func (a *API) show(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"id": c.Param("id")})
}

// Routes wires the middlewares in front of their routes.
func (a *API) Routes(r *gin.Engine) {
	orders := r.Group("/orders", a.leaderOnly)
	orders.POST("/:id/approve", a.approve)
	status := r.Group("/status")
	status.Use(a.leaderForReads)
	status.GET("/:id", a.show)
}
