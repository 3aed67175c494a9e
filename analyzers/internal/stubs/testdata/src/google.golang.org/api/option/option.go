// Package option is a minimal stub of google.golang.org/api/option.
package option

type ClientOption interface {
	applyClientOption()
}

func WithCredentialsFile(filename string) ClientOption { panic("stub") }
func WithEndpoint(url string) ClientOption             { panic("stub") }
