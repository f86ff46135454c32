package events

import (
	"errors"
	"fmt"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
)

func TestStoreFull(t *testing.T) {
	for _, tc := range []struct {
		err  error
		full bool
	}{
		{&jetstream.APIError{Code: 400, ErrorCode: 10002, Description: "resource limits exceeded for account"}, true},
		{fmt.Errorf("forward: %w", &jetstream.APIError{Code: 503, ErrorCode: 10023, Description: "insufficient resources"}), true},
		{&jetstream.APIError{Code: 500, ErrorCode: 10047, Description: "insufficient storage resources available"}, true},
		{&jetstream.APIError{Code: 404, ErrorCode: jetstream.JSErrCodeStreamNotFound, Description: "stream not found"}, false},
		{errors.New("insufficient resources"), false},
		{nil, false},
	} {
		if got := StoreFull(tc.err); got != tc.full {
			t.Errorf("StoreFull(%v) = %v; want %v", tc.err, got, tc.full)
		}
	}
}
