// Package aws is a stub of github.com/aws/aws-sdk-go-v2/aws v1.48.0 for
// analysistest fixtures: real signatures, no behaviour.
package aws

import "time"

type Config struct {
	Region string
}

func String(v string) *string       { return &v }
func ToString(p *string) (v string) { return }
func Int64(v int64) *int64          { return &v }
func ToInt64(p *int64) (v int64)    { return }
func Bool(v bool) *bool             { return &v }
func Time(v time.Time) *time.Time   { return &v }
