// Package echo is a stub of github.com/labstack/echo/v4 v4.16.5 for
// analysistest fixtures: real signatures, no behaviour.
package echo

import "net/http"

type HandlerFunc func(c Context) error

type MiddlewareFunc func(next HandlerFunc) HandlerFunc

type Context interface {
	Request() *http.Request
	Param(name string) string
	JSON(code int, i any) error
	NoContent(code int) error
}

type Route struct {
	Method string
	Path   string
	Name   string
}

type Echo struct{}

func New() (e *Echo)                                                              { return }
func (e *Echo) Pre(middleware ...MiddlewareFunc)                                  { return }
func (e *Echo) Use(middleware ...MiddlewareFunc)                                  { return }
func (e *Echo) GET(path string, h HandlerFunc, m ...MiddlewareFunc) (_ *Route)    { return }
func (e *Echo) POST(path string, h HandlerFunc, m ...MiddlewareFunc) (_ *Route)   { return }
func (e *Echo) PUT(path string, h HandlerFunc, m ...MiddlewareFunc) (_ *Route)    { return }
func (e *Echo) DELETE(path string, h HandlerFunc, m ...MiddlewareFunc) (_ *Route) { return }
func (e *Echo) Add(method, path string, handler HandlerFunc, middleware ...MiddlewareFunc) (_ *Route) {
	return
}
func (e *Echo) Group(prefix string, m ...MiddlewareFunc) (g *Group) { return }
func (e *Echo) Start(address string) (_ error)                      { return }

type Group struct{}

func (g *Group) Use(middleware ...MiddlewareFunc)                                  { return }
func (g *Group) GET(path string, h HandlerFunc, m ...MiddlewareFunc) (_ *Route)    { return }
func (g *Group) POST(path string, h HandlerFunc, m ...MiddlewareFunc) (_ *Route)   { return }
func (g *Group) PUT(path string, h HandlerFunc, m ...MiddlewareFunc) (_ *Route)    { return }
func (g *Group) DELETE(path string, h HandlerFunc, m ...MiddlewareFunc) (_ *Route) { return }
func (g *Group) Group(prefix string, middleware ...MiddlewareFunc) (sg *Group)     { return }
