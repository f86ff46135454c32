package store

// MinFreeBytes is the free space below which the daemon refuses to start a
// recording: JetStream that runs out of disk mid-recording loses steps and
// stops storing anything until it has room again.
const MinFreeBytes = 64 << 20

// FreeBytes returns the space free to this user on the filesystem holding
// dir; see the OS files.
func FreeBytes(dir string) (uint64, error) { return freeBytes(dir) }
