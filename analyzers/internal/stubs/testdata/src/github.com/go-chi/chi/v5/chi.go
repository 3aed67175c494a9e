// Package chi is a stub of github.com/go-chi/chi/v5 v5.3.0 for
// analysistest fixtures: real signatures, no behaviour.
package chi

import "net/http"

type Router interface {
	http.Handler

	Use(middlewares ...func(http.Handler) http.Handler)
	With(middlewares ...func(http.Handler) http.Handler) Router
	Group(fn func(r Router)) Router
	Route(pattern string, fn func(r Router)) Router
	Mount(pattern string, h http.Handler)
	Handle(pattern string, h http.Handler)
	HandleFunc(pattern string, h http.HandlerFunc)
	Method(method, pattern string, h http.Handler)
	Delete(pattern string, h http.HandlerFunc)
	Get(pattern string, h http.HandlerFunc)
	Post(pattern string, h http.HandlerFunc)
	Put(pattern string, h http.HandlerFunc)
}

type Mux struct{}

func NewRouter() (_ *Mux)                                                      { return }
func NewMux() (_ *Mux)                                                         { return }
func (mx *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request)               { return }
func (mx *Mux) Use(middlewares ...func(http.Handler) http.Handler)             { return }
func (mx *Mux) With(middlewares ...func(http.Handler) http.Handler) (_ Router) { return }
func (mx *Mux) Group(fn func(r Router)) (_ Router)                             { return }
func (mx *Mux) Route(pattern string, fn func(r Router)) (_ Router)             { return }
func (mx *Mux) Mount(pattern string, handler http.Handler)                     { return }
func (mx *Mux) Handle(pattern string, handler http.Handler)                    { return }
func (mx *Mux) HandleFunc(pattern string, handlerFn http.HandlerFunc)          { return }
func (mx *Mux) Method(method, pattern string, handler http.Handler)            { return }
func (mx *Mux) Delete(pattern string, handlerFn http.HandlerFunc)              { return }
func (mx *Mux) Get(pattern string, handlerFn http.HandlerFunc)                 { return }
func (mx *Mux) Post(pattern string, handlerFn http.HandlerFunc)                { return }
func (mx *Mux) Put(pattern string, handlerFn http.HandlerFunc)                 { return }

func URLParam(r *http.Request, key string) (_ string) { return }
