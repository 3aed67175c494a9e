// Package api serves the controller's HTTP API with gin: a middleware sends
// requests to the leader, and the handlers after it write the metadata.
package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"leaderprobe/storage"
)

type Server struct {
	engine  *gin.Engine
	storage *storage.Storage
}

type ClusterHandler struct{ storage *storage.Storage }

// Create writes a cluster's topology.
func (h *ClusterHandler) Create(c *gin.Context) {
	if err := h.storage.UpdateCluster(c.Request.Context(), c.Param("cluster"), map[string]string{}); err != nil {
		c.JSON(http.StatusInternalServerError, err.Error())
	}
}

// Get only reads.
func (h *ClusterHandler) Get(c *gin.Context) {
	c.JSON(http.StatusOK, c.Param("cluster"))
}

// redirectIfNotLeader checks leadership, then runs the handlers after it:
// those write, and the answer is stale by then.
func (s *Server) redirectIfNotLeader(c *gin.Context) {
	if !s.storage.IsLeader() { // want `Storage.IsLeader only tells that the lease was held when it ran, yet it guards the unfenced write Context.Next\(ClusterHandler.Create\) \(KV.Put at etcdstore.go:\d+, via \*etcdstore.Etcd.Set, via Persistence.Set, via Storage.UpdateCluster\)`
		c.AbortWithStatus(http.StatusTemporaryRedirect)
		return
	}
	c.Next()
}

// requireToken checks a header, not a lease.
func requireToken(c *gin.Context) {
	if c.Request.Header.Get("Authorization") == "" {
		c.AbortWithStatus(http.StatusUnauthorized)
		return
	}
	c.Next()
}

// leaderOnlyStatus guards only read-only routes.
func (s *Server) leaderOnlyStatus(c *gin.Context) {
	if !s.storage.IsLeader() {
		c.AbortWithStatus(http.StatusServiceUnavailable)
		return
	}
	c.Next()
}

// leaderForLater is added after the writing route was registered: gin does
// not run it for that route.
func (s *Server) leaderForLater(c *gin.Context) {
	if !s.storage.IsLeader() {
		c.AbortWithStatus(http.StatusServiceUnavailable)
		return
	}
	c.Next()
}

func (s *Server) routes() {
	clusters := &ClusterHandler{storage: s.storage}
	engine := s.engine
	engine.Use(requireToken, s.redirectIfNotLeader)
	v1 := engine.Group("/api/v1")
	{
		v1.GET("/clusters/:cluster", clusters.Get)
		v1.POST("/clusters/:cluster", clusters.Create)
	}
}

func (s *Server) statusRoutes(status *gin.Engine) {
	clusters := &ClusterHandler{storage: s.storage}
	ro := status.Group("/status", s.leaderOnlyStatus)
	ro.GET("/clusters/:cluster", clusters.Get)
}

func (s *Server) adminRoutes(admin *gin.Engine) {
	clusters := &ClusterHandler{storage: s.storage}
	admin.POST("/clusters/:cluster", clusters.Create)
	admin.Use(s.leaderForLater)
	admin.GET("/clusters/:cluster", clusters.Get)
}
