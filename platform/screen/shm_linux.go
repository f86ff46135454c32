package screen

import (
	"fmt"
	"os"
	"strings"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/shm"
	"github.com/jezek/xgb/xproto"
	"golang.org/x/sys/unix"
)

// shmSeg is a System V shared memory segment attached by both this process
// and the X server, which writes grabbed pixels straight into it.
type shmSeg struct {
	seg  shm.Seg
	data []byte
}

// localDisplay reports whether display names a server on this machine by
// a local socket, the only case in which its shared memory is ours too.
// It follows xgb's parsing: [protocol/][host]:display[.screen].
func localDisplay(display string) bool {
	if display == "" {
		display = os.Getenv("DISPLAY") // as xgb does
	}
	if strings.HasPrefix(display, "/") {
		return true
	}
	colon := strings.LastIndex(display, ":")
	if colon < 0 {
		return false
	}
	host := display[:colon]
	if i := strings.LastIndex(host, "/"); i >= 0 {
		host = host[i+1:]
	}
	return host == "" || host == "unix"
}

// attachSHM creates a segment of size bytes and has the server attach it.
func attachSHM(c *xgb.Conn, size int) (*shmSeg, error) {
	if err := shm.Init(c); err != nil {
		return nil, err
	}
	id, err := unix.SysvShmGet(unix.IPC_PRIVATE, size, unix.IPC_CREAT|0o600)
	if err != nil {
		return nil, fmt.Errorf("shmget: %w", err)
	}
	// Once both sides are attached (or on failure), mark the segment for
	// removal, so the kernel frees it when the last one detaches, even
	// when this process dies without Close.
	defer func() { _, _ = unix.SysvShmCtl(id, unix.IPC_RMID, nil) }()
	data, err := unix.SysvShmAttach(id, 0, 0)
	if err != nil {
		return nil, fmt.Errorf("shmat: %w", err)
	}
	seg, err := shm.NewSegId(c)
	if err == nil {
		err = shm.AttachChecked(c, seg, uint32(id), false).Check()
	}
	if err != nil {
		_ = unix.SysvShmDetach(data)
		return nil, fmt.Errorf("shm attach: %w", err)
	}
	return &shmSeg{seg: seg, data: data}, nil
}

// getImage has the server write the root's w x h pixels into the segment.
func (s *shmSeg) getImage(c *xgb.Conn, root xproto.Window, w, h uint16) error {
	_, err := shm.GetImage(c, xproto.Drawable(root), 0, 0, w, h, ^uint32(0),
		xproto.ImageFormatZPixmap, s.seg, 0).Reply()
	return err
}

func (s *shmSeg) detach(c *xgb.Conn) error {
	// Checked, so the server has let go before the memory goes.
	err := shm.DetachChecked(c, s.seg).Check()
	if derr := unix.SysvShmDetach(s.data); err == nil {
		err = derr
	}
	return err
}
