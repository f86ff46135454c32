package elements

import (
	"context"
	"reflect"
	"time"
)

// Watch lists src every interval and calls emit with each listing that
// differs from the last, until ctx ends. A read that fails is emitted once
// as it fails (the window may be gone) and the watch goes on.
func Watch(ctx context.Context, src Source, limit int, interval time.Duration, emit func(Listing, error) error) error {
	var last *Listing
	var lastErr string
	for {
		l, err := List(ctx, src, limit)
		if ctx.Err() != nil {
			return nil
		}
		switch {
		case err != nil && err.Error() != lastErr:
			lastErr, last = err.Error(), nil
			if eerr := emit(Listing{}, err); eerr != nil {
				return eerr
			}
		case err == nil && (last == nil || !reflect.DeepEqual(*last, l)):
			last, lastErr = &l, ""
			if eerr := emit(l, nil); eerr != nil {
				return eerr
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(interval):
		}
	}
}
