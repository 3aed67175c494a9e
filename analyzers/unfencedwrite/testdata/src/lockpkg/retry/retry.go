// Package retry runs a func again until it succeeds.
package retry

import "time"

// Do calls f up to times times, until it returns nil.
func Do(times int, f func() error) error {
	var err error
	for range times {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}
