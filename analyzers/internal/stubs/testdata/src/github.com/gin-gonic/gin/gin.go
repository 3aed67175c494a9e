// Package gin is a stub of github.com/gin-gonic/gin v1.11.0 for
// analysistest fixtures: real signatures, no behaviour.
package gin

import "net/http"

type HandlerFunc func(*Context)

type HandlersChain []HandlerFunc

type OptionFunc func(*Engine)

type Context struct {
	Request *http.Request
}

func (c *Context) Next()                        { return }
func (c *Context) Abort()                       { return }
func (c *Context) AbortWithStatus(code int)     { return }
func (c *Context) Param(key string) (_ string)  { return }
func (c *Context) JSON(code int, obj any)       { return }
func (c *Context) Status(code int)              { return }
func (c *Context) ShouldBindJSON(obj any) error { return nil }

type IRouter interface {
	IRoutes
	Group(string, ...HandlerFunc) *RouterGroup
}

type IRoutes interface {
	Use(...HandlerFunc) IRoutes

	Handle(string, string, ...HandlerFunc) IRoutes
	Any(string, ...HandlerFunc) IRoutes
	GET(string, ...HandlerFunc) IRoutes
	POST(string, ...HandlerFunc) IRoutes
	DELETE(string, ...HandlerFunc) IRoutes
	PATCH(string, ...HandlerFunc) IRoutes
	PUT(string, ...HandlerFunc) IRoutes
	OPTIONS(string, ...HandlerFunc) IRoutes
	HEAD(string, ...HandlerFunc) IRoutes
	Match([]string, string, ...HandlerFunc) IRoutes

	StaticFile(string, string) IRoutes
	StaticFileFS(string, string, http.FileSystem) IRoutes
	Static(string, string) IRoutes
	StaticFS(string, http.FileSystem) IRoutes
}

type RouterGroup struct {
	Handlers HandlersChain
	basePath string
	engine   *Engine
	root     bool
}

func (group *RouterGroup) Use(middleware ...HandlerFunc) (_ IRoutes) { return }
func (group *RouterGroup) Group(relativePath string, handlers ...HandlerFunc) (_ *RouterGroup) {
	return
}
func (group *RouterGroup) Handle(httpMethod, relativePath string, handlers ...HandlerFunc) (_ IRoutes) {
	return
}
func (group *RouterGroup) Match(methods []string, relativePath string, handlers ...HandlerFunc) (_ IRoutes) {
	return
}
func (group *RouterGroup) Any(relativePath string, handlers ...HandlerFunc) (_ IRoutes)     { return }
func (group *RouterGroup) GET(relativePath string, handlers ...HandlerFunc) (_ IRoutes)     { return }
func (group *RouterGroup) POST(relativePath string, handlers ...HandlerFunc) (_ IRoutes)    { return }
func (group *RouterGroup) PUT(relativePath string, handlers ...HandlerFunc) (_ IRoutes)     { return }
func (group *RouterGroup) DELETE(relativePath string, handlers ...HandlerFunc) (_ IRoutes)  { return }
func (group *RouterGroup) PATCH(relativePath string, handlers ...HandlerFunc) (_ IRoutes)   { return }
func (group *RouterGroup) OPTIONS(relativePath string, handlers ...HandlerFunc) (_ IRoutes) { return }
func (group *RouterGroup) HEAD(relativePath string, handlers ...HandlerFunc) (_ IRoutes)    { return }
func (group *RouterGroup) StaticFile(relativePath, filepath string) (_ IRoutes)             { return }
func (group *RouterGroup) StaticFileFS(relativePath, filepath string, fs http.FileSystem) (_ IRoutes) {
	return
}
func (group *RouterGroup) Static(relativePath, root string) (_ IRoutes)                 { return }
func (group *RouterGroup) StaticFS(relativePath string, fs http.FileSystem) (_ IRoutes) { return }

type Engine struct {
	RouterGroup
}

func New(opts ...OptionFunc) (_ *Engine)                         { return }
func Default(opts ...OptionFunc) (_ *Engine)                     { return }
func (engine *Engine) Use(middleware ...HandlerFunc) (_ IRoutes) { return }
func (engine *Engine) Run(addr ...string) (err error)            { return }
