package computer

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// connectedPIDs reads /proc/net/tcp{,6} for established sockets whose
// remote end is port on this machine, then finds the processes holding
// them among /proc/*/fd (the current user's: a process of another user
// cannot be the person's program).
func connectedPIDs(port int) ([]int, error) {
	inodes := map[string]bool{}
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		if err := socketsTo(table, port, inodes); err != nil && !os.IsNotExist(err) {
			return nil, err
		}
	}
	if len(inodes) == 0 {
		return nil, nil
	}
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	var out []int
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		fds, err := os.ReadDir(filepath.Join("/proc", p.Name(), "fd"))
		if err != nil {
			continue // gone, or another user's
		}
		for _, fd := range fds {
			link, err := os.Readlink(filepath.Join("/proc", p.Name(), "fd", fd.Name()))
			if err == nil && strings.HasPrefix(link, "socket:[") && inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] {
				out = append(out, pid)
				break
			}
		}
	}
	return out, nil
}

// socketsTo adds to inodes the sockets of table connected to port.
func socketsTo(table string, port int, inodes map[string]bool) error {
	f, err := os.Open(table)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		if inode, ok := connectedTo(sc.Text(), port); ok {
			inodes[inode] = true
		}
	}
	return sc.Err()
}

// connectedTo parses one line of /proc/net/tcp: an established socket
// (state 01) whose remote address has port gives its inode.
func connectedTo(line string, port int) (string, bool) {
	f := strings.Fields(line)
	if len(f) < 10 || f[3] != "01" {
		return "", false
	}
	_, rport, ok := strings.Cut(f[2], ":")
	if !ok {
		return "", false
	}
	p, err := strconv.ParseUint(rport, 16, 16)
	if err != nil || int(p) != port || f[9] == "0" {
		return "", false
	}
	return f[9], true
}
