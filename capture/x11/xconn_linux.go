package x11

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// display is a parsed DISPLAY value.
type display struct {
	host   string // "" for the local socket
	number string
}

func parseDisplay(d string) (display, error) {
	colon := strings.LastIndex(d, ":")
	if colon < 0 || colon == len(d)-1 {
		return display{}, fmt.Errorf("DISPLAY %q is not host:number[.screen]", d)
	}
	host, num := d[:colon], d[colon+1:]
	if dot := strings.IndexByte(num, '.'); dot >= 0 {
		num = num[:dot]
	}
	if n, err := strconv.Atoi(num); err != nil || n < 0 {
		return display{}, fmt.Errorf("DISPLAY %q has no display number", d)
	}
	if host == "unix" || strings.HasPrefix(host, "/") {
		host = "" // a socket path prefix (as on macOS) is still the local socket
	}
	return display{host: host, number: num}, nil
}

// dialRaw opens the second, raw X connection RECORD's data flows over and
// completes the connection setup itself, since xgb cannot read a stream of
// replies to one request. It uses little-endian byte order.
func dialRaw(d string, timeout time.Duration) (net.Conn, error) {
	disp, err := parseDisplay(d)
	if err != nil {
		return nil, err
	}
	var conn net.Conn
	if disp.host == "" {
		path := "/tmp/.X11-unix/X" + disp.number
		conn, err = net.DialTimeout("unix", path, timeout)
		if err != nil {
			// Some servers listen only on the abstract socket.
			conn, err = net.DialTimeout("unix", "@"+path, timeout)
		}
	} else {
		n, _ := strconv.Atoi(disp.number)
		conn, err = net.DialTimeout("tcp", net.JoinHostPort(disp.host, strconv.Itoa(6000+n)), timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("connect to X display %s: %w", d, err)
	}
	_ = conn.SetDeadline(time.Now().Add(timeout))
	if err := setup(conn, disp); err != nil {
		conn.Close()
		return nil, fmt.Errorf("set up X connection to %s: %w", d, err)
	}
	_ = conn.SetDeadline(time.Time{})
	return conn, nil
}

// setup sends the connection setup request with the display's
// MIT-MAGIC-COOKIE-1, if the authority file has one, and reads the answer.
func setup(conn net.Conn, disp display) error {
	name, data := cookie(disp)
	pad := func(n int) int { return (n + 3) &^ 3 }
	req := make([]byte, 12+pad(len(name))+pad(len(data)))
	req[0] = 'l' // little endian
	le := binary.LittleEndian
	le.PutUint16(req[2:], 11)
	le.PutUint16(req[6:], uint16(len(name)))
	le.PutUint16(req[8:], uint16(len(data)))
	copy(req[12:], name)
	copy(req[12+pad(len(name)):], data)
	if _, err := conn.Write(req); err != nil {
		return err
	}
	var head [8]byte
	if _, err := io.ReadFull(conn, head[:]); err != nil {
		return fmt.Errorf("read setup reply: %w", err)
	}
	rest := make([]byte, int(le.Uint16(head[6:]))*4)
	if _, err := io.ReadFull(conn, rest); err != nil {
		return fmt.Errorf("read setup reply: %w", err)
	}
	switch head[0] {
	case 1:
		return nil
	case 0:
		reason := rest[:min(int(head[1]), len(rest))]
		return fmt.Errorf("the X server refused the connection: %s", strings.TrimSpace(string(reason)))
	default:
		return errors.New("the X server asks for an authentication protocol other than MIT-MAGIC-COOKIE-1")
	}
}

// Xauthority entry families (X11/Xauth.h).
const (
	familyLocal = 256
	familyWild  = 65535
)

// cookie finds the MIT-MAGIC-COOKIE-1 for a local display in $XAUTHORITY
// (or ~/.Xauthority). None found means no authentication, which a server
// without access control (Xvfb in tests) accepts.
func cookie(disp display) (name string, data []byte) {
	file := os.Getenv("XAUTHORITY")
	if file == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", nil
		}
		file = filepath.Join(home, ".Xauthority")
	}
	f, err := os.Open(file)
	if err != nil {
		return "", nil
	}
	defer f.Close()
	host := disp.host
	if host == "" || host == "localhost" {
		host, _ = os.Hostname()
	}
	r := bufio.NewReader(f)
	for {
		var family uint16
		if binary.Read(r, binary.BigEndian, &family) != nil {
			return "", nil
		}
		fields := make([][]byte, 4) // address, display number, name, data
		for i := range fields {
			var n uint16
			if binary.Read(r, binary.BigEndian, &n) != nil {
				return "", nil
			}
			fields[i] = make([]byte, n)
			if _, err := io.ReadFull(r, fields[i]); err != nil {
				return "", nil
			}
		}
		addrOK := family == familyWild || (family == familyLocal && string(fields[0]) == host)
		dispOK := len(fields[1]) == 0 || string(fields[1]) == disp.number
		if addrOK && dispOK && string(fields[2]) == "MIT-MAGIC-COOKIE-1" {
			return string(fields[2]), fields[3]
		}
	}
}

// enableContext sends RecordEnableContext (minor opcode 5) on the raw
// connection; its replies are the recorded data, until the context is
// disabled.
func enableContext(conn net.Conn, major byte, context uint32) error {
	var req [8]byte
	req[0], req[1] = major, 5
	binary.LittleEndian.PutUint16(req[2:], 2) // length in 4-byte words
	binary.LittleEndian.PutUint32(req[4:], context)
	if _, err := conn.Write(req[:]); err != nil {
		return fmt.Errorf("send RecordEnableContext: %w", err)
	}
	return nil
}
