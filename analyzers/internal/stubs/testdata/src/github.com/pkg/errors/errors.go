// Package errors stubs github.com/pkg/errors.
package errors

type fundamental struct{ msg string }

func (f *fundamental) Error() string { return f.msg }

func New(message string) error                                         { return &fundamental{message} }
func Errorf(format string, args ...interface{}) error                  { return &fundamental{format} }
func WithStack(err error) error                                        { return err }
func Wrap(err error, message string) error                             { return err }
func Wrapf(err error, format string, args ...interface{}) error        { return err }
func WithMessage(err error, message string) error                      { return err }
func WithMessagef(err error, format string, args ...interface{}) error { return err }
