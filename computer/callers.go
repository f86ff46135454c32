package computer

// ConnectedPIDs returns the processes that hold a TCP connection to the
// daemon's client port on this machine, and the parents of each: the
// programs using the CLI's connection, found from the connections
// themselves (the OS's socket table), not from anything they say, and the
// terminals running them. Where the OS's table cannot be read it returns
// an error, and no caller is refused by it.
func ConnectedPIDs(port int) ([]int, error) {
	pids, err := connectedPIDs(port)
	if err != nil {
		return nil, err
	}
	out := pids
	for _, p := range pids {
		out = append(out, Parents(p)...)
	}
	return out, nil
}
