package input

import (
	"fmt"
	"image"
	"io"
	"log"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// Pointer is where the pointer is on display ("" for $DISPLAY), in root
// coordinates. It sends nothing.
func Pointer(display string) (image.Point, error) {
	xgb.Logger = log.New(io.Discard, "", 0)
	conn, err := xgb.NewConnDisplay(display)
	if err != nil {
		return image.Point{}, fmt.Errorf("connect to the X server: %w", err)
	}
	defer conn.Close()
	r, err := xproto.QueryPointer(conn, xproto.Setup(conn).DefaultScreen(conn).Root).Reply()
	if err != nil {
		return image.Point{}, fmt.Errorf("query the pointer: %w", err)
	}
	return image.Pt(int(r.RootX), int(r.RootY)), nil
}
