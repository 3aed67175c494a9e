// Package mux is a stub of github.com/gorilla/mux v1.8.1 for analysistest
// fixtures: real signatures, no behaviour.
package mux

import "net/http"

type MiddlewareFunc func(http.Handler) http.Handler

type Router struct{}

func NewRouter() (_ *Router)                                         { return }
func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) { return }
func (r *Router) Use(mwf ...MiddlewareFunc)                          { return }
func (r *Router) Handle(path string, handler http.Handler) (_ *Route) {
	return
}
func (r *Router) HandleFunc(path string, f func(http.ResponseWriter, *http.Request)) (_ *Route) {
	return
}
func (r *Router) PathPrefix(tpl string) (_ *Route) { return }

type Route struct{}

func (r *Route) Methods(methods ...string) (_ *Route) { return }
func (r *Route) Subrouter() (_ *Router)               { return }

func Vars(r *http.Request) (_ map[string]string) { return }
