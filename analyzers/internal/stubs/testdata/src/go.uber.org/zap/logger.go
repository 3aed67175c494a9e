// Package zap is a minimal stub of go.uber.org/zap, for the signatures of
// the etcd client stubs.
package zap

import "go.uber.org/zap/zapcore"

type Logger struct{}

func NewNop() *Logger { return &Logger{} }

// Field is a logging field.
type Field = zapcore.Field

func String(key, val string) (_ Field)      { return }
func Int64(key string, val int64) (_ Field) { return }

func (log *Logger) Debug(msg string, fields ...Field) {}
func (log *Logger) Info(msg string, fields ...Field)  {}
func (log *Logger) Warn(msg string, fields ...Field)  {}
