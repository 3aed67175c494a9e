// Package zapcore is a minimal stub of go.uber.org/zap/zapcore.
package zapcore

// Field is a logging field.
type Field struct {
	Key     string
	Integer int64
	String  string
}
