// Package xcontext stands for golang.org/x/net/context, which declares
// Context as an alias of the standard library's.
package xcontext

import "context"

type Context = context.Context
