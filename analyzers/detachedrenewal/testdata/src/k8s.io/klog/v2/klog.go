// Package klog is a stub of k8s.io/klog/v2 v2.130.1 for this analyzer's
// fixtures: real signatures, no behaviour.
package klog

func Info(args ...interface{})                  {}
func Infof(format string, args ...interface{})  {}
func Errorf(format string, args ...interface{}) {}
func Fatal(args ...interface{})                 {}
func Fatalf(format string, args ...interface{}) {}
func Exit(args ...interface{})                  {}
func Flush()                                    {}
