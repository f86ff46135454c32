package events

import (
	"errors"

	"github.com/nats-io/nats.go/jetstream"
)

// The JetStream error codes of a store with no room (nats-server's
// JSAccountResourcesExceededErr, JSInsufficientResourcesErr and
// JSStorageResourcesExceededErr); nats.go names none of them.
const (
	codeAccountResourcesExceeded jetstream.ErrorCode = 10002
	codeInsufficientResources    jetstream.ErrorCode = 10023
	codeStorageResourcesExceeded jetstream.ErrorCode = 10047
)

// StoreFull reports whether err is JetStream refusing a write for lack of
// room: the disk (or the limit the daemon fits to it) is full.
func StoreFull(err error) bool {
	var api *jetstream.APIError
	if !errors.As(err, &api) {
		return false
	}
	switch api.ErrorCode {
	case codeAccountResourcesExceeded, codeInsufficientResources, codeStorageResourcesExceeded:
		return true
	}
	return false
}
