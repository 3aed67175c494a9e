// Package option is a minimal stub of google.golang.org/api/option.
package option

type ClientOption interface {
	applyClientOption()
}

func WithCredentialsFile(filename string) (_ ClientOption) { return }
func WithEndpoint(url string) (_ ClientOption)             { return }
