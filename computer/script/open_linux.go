package script

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"log"
	"os"
	"os/exec"
	"strings"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/res"
	"github.com/jezek/xgb/xproto"
)

const backend = "x11"

// xclip owns the CLIPBOARD selection for the text written (an X client
// must stay up to serve it, which xclip does after it forks) and reads it.
type xclip struct{ display string }

func newClipboard(display string) Clipboard {
	if _, err := exec.LookPath("xclip"); err != nil {
		return nil
	}
	return xclip{display}
}

func (x xclip) cmd(ctx context.Context, args ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, "xclip", append([]string{"-selection", "clipboard"}, args...)...)
	c.Env = os.Environ()
	if x.display != "" {
		c.Env = append(c.Env, "DISPLAY="+x.display)
	}
	return c
}

func (x xclip) Read(ctx context.Context) (string, error) {
	var out, stderr bytes.Buffer
	c := x.cmd(ctx, "-o")
	c.Stdout, c.Stderr = &out, &stderr
	if err := c.Run(); err != nil {
		// An empty clipboard is not an error to a script.
		if strings.Contains(stderr.String(), "target STRING not available") || strings.Contains(stderr.String(), "Error: target") {
			return "", nil
		}
		return "", fmt.Errorf("xclip: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return out.String(), nil
}

func (x xclip) Write(ctx context.Context, text string) error {
	c := x.cmd(ctx, "-i")
	c.Stdin = strings.NewReader(text)
	// xclip forks a child that serves the selection until another client
	// takes it: it must hold no pipe of ours, or Run would wait for it.
	if err := c.Run(); err != nil {
		return fmt.Errorf("xclip: %w", err)
	}
	return nil
}

// displays is the X screen: one rectangle (RandR outputs would split it).
func displays(display string) ([]image.Rectangle, error) {
	xgb.Logger = log.New(io.Discard, "", 0)
	conn, err := xgb.NewConnDisplay(display)
	if err != nil {
		return nil, fmt.Errorf("connect to the X server: %w", err)
	}
	defer conn.Close()
	s := xproto.Setup(conn).DefaultScreen(conn)
	if s == nil {
		return nil, errors.New("the X server has no screen")
	}
	return []image.Rectangle{image.Rect(0, 0, int(s.WidthInPixels), int(s.HeightInPixels))}, nil
}

// Owner asks the X server which client owns the CLIPBOARD selection and
// that client's pid (the X-Resource extension: the server tells it, the
// client does not).
func (x xclip) Owner(context.Context) (int, error) {
	c, err := xgb.NewConnDisplay(x.display)
	if err != nil {
		return 0, fmt.Errorf("connect to the X display: %w", err)
	}
	defer c.Close()
	if err := res.Init(c); err != nil {
		return 0, fmt.Errorf("the X server has no X-Resource extension: %w", err)
	}
	atom, err := xproto.InternAtom(c, false, uint16(len("CLIPBOARD")), "CLIPBOARD").Reply()
	if err != nil {
		return 0, fmt.Errorf("intern CLIPBOARD: %w", err)
	}
	owner, err := xproto.GetSelectionOwner(c, atom.Atom).Reply()
	if err != nil {
		return 0, fmt.Errorf("the clipboard's owner: %w", err)
	}
	if owner.Owner == xproto.WindowNone {
		return 0, nil
	}
	ids, err := res.QueryClientIds(c, 1, []res.ClientIdSpec{{Client: uint32(owner.Owner), Mask: res.ClientIdMaskLocalClientPID}}).Reply()
	if err != nil {
		return 0, fmt.Errorf("the clipboard owner's pid: %w", err)
	}
	for _, id := range ids.Ids {
		if id.Spec.Mask&res.ClientIdMaskLocalClientPID != 0 && len(id.Value) > 0 {
			return int(id.Value[0]), nil
		}
	}
	return 0, errors.New("the X server does not say which process owns the clipboard (a remote client)")
}
