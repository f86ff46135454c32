package embedded

import (
	"fmt"

	"github.com/nats-io/nats-server/v2/server"
)

// storeCeiling is the server's own limit on the file store. Left at zero,
// JetStream fixes it at 75% of the disk free when it starts, for the
// server's life: a daemon started on a nearly full disk refused every write
// after space returned, until a restart. The shim account's limit follows
// the disk instead (FollowDisk).
const storeCeiling = 1 << 40

// StoreReserve is the disk space the store's messages may never take:
// JetStream writes its indexes and consumer state outside the limit, and a
// write that meets a full disk fails the stream until the server restarts,
// where one over the limit is refused at once and the next one may pass.
const StoreReserve = 16 << 20

// FollowDisk lets the shim's streams grow by what the disk has free, less
// StoreReserve: past it a write is refused (503, insufficient resources),
// and once space returns the next call lets writes through again. free is
// the space free on the store's disk now.
func (s *Server) FollowDisk(free uint64) error {
	acc, err := s.ns.LookupAccount(AccountShim)
	if err != nil {
		return fmt.Errorf("follow disk: %w", err)
	}
	used := int64(acc.JetStreamUsage().Store)
	limit := used + max(int64(free)-StoreReserve, 0)
	s.diskMu.Lock()
	defer s.diskMu.Unlock()
	if d := limit - s.storeLimit; s.storeLimit != 0 && d > -1<<20 && d < 1<<20 {
		return nil // within a megabyte of the limit already set
	}
	err = acc.UpdateJetStreamLimits(map[string]server.JetStreamAccountLimits{"": {
		MaxMemory: -1, MaxStore: limit, MaxStreams: -1, MaxConsumers: -1, MaxAckPending: -1,
		MemoryMaxStreamBytes: -1, StoreMaxStreamBytes: -1,
	}})
	if err != nil {
		return fmt.Errorf("follow disk: limit the store to %d bytes: %w", limit, err)
	}
	s.storeLimit = limit
	return nil
}
