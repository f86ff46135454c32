package desktop

import (
	"context"
	"errors"
	"image"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
)

// closingDialog is a form whose OK at (200, 300) closes it: by the time a
// busy pipeline looks the OK up, the dialog is gone. Its listing, read
// after the person's first press, still shows the OK.
type closingDialog struct {
	listed chan struct{} // receives once per listing
}

var (
	nameField = &events.Enrichment{Kind: events.KindAX, Role: "textbox", Label: "Name", AXPath: path("dialog[New customer]/panel/text")}
	okButton  = &events.Enrichment{Kind: events.KindAX, Role: "button", Label: "OK", AXPath: path("dialog[New customer]/panel/push button[OK]")}
)

func (d *closingDialog) At(_ context.Context, x, y int) (*events.Enrichment, error) {
	if image.Pt(x, y) == image.Pt(100, 100) {
		return nameField, nil
	}
	return nil, errors.New("the object has gone")
}

func (d *closingDialog) Elements(context.Context, string) ([]Seen, error) {
	defer func() { d.listed <- struct{}{} }()
	return []Seen{
		{Bounds: image.Rect(0, 0, 400, 400), Enrichment: &events.Enrichment{Kind: events.KindAX, Role: "dialog", Label: "New customer", AXPath: path("dialog[New customer]")}},
		{Bounds: image.Rect(50, 90, 300, 110), Enrichment: nameField},
		{Bounds: image.Rect(180, 290, 220, 310), Enrichment: okButton},
	}, nil
}

// pressIn runs the person's presses in window title through a pipeline;
// with listed, each press after the first waits for the listing the first
// one started (listed must be buffered: later presses may start more).
func pressIn(t *testing.T, enr Enricher, listed chan struct{}, title string, pts ...image.Point) []events.Step {
	t.Helper()
	q := capture.NewQueue(32)
	p := NewPipeline(q, PipelineOptions{Enricher: enr, EnrichTimeout: 200 * time.Millisecond}, func(dst []Raw, r Raw) []Raw { return append(dst, r) })
	done := make(chan struct{})
	go func() { defer close(done); p.Run(context.Background()) }()
	at := time.Now()
	for i, pt := range pts {
		if i > 0 && listed != nil {
			<-listed
			p.snap.wait() // stored, not only read: listed is sent as Elements returns
		}
		at = at.Add(time.Second)
		win := Window{ID: 1, App: title, Title: title}
		p.Feed(Raw{Kind: ButtonPress, Button: 1, X: pt.X, Y: pt.Y, Time: at, Window: win})
		p.Feed(Raw{Kind: ButtonRelease, Button: 1, X: pt.X, Y: pt.Y, Time: at, Window: win})
	}
	p.Close()
	<-done
	q.Close()
	var got []events.Step
	_ = q.Run(context.Background(), func(s events.Step) error { got = append(got, s); return nil })
	return got
}

// TestPressNamedByTheWindowBefore: an OK whose dialog closed before the
// press was looked up is named by what the dialog showed after the
// person's press before it; a press where it showed nothing is not
// named by it, nor a press in a window no listing read.
func TestPressNamedByTheWindowBefore(t *testing.T) {
	for _, tc := range []struct {
		name   string
		title  string
		second image.Point
		want   *events.Enrichment
	}{
		{"the OK", "New customer", image.Pt(200, 300), okButton},
		{"a point the dialog showed nothing at", "New customer", image.Pt(500, 500), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &closingDialog{listed: make(chan struct{}, 4)}
			got := pressIn(t, d, d.listed, tc.title, image.Pt(100, 100), tc.second)
			if len(got) != 2 {
				t.Fatalf("steps = %s; want two clicks", describeSteps(got))
			}
			if e := got[1].Enrichment; (e == nil) != (tc.want == nil) || e != nil && (e.Label != tc.want.Label || e.Role != tc.want.Role || *e.AXPath != *tc.want.AXPath) {
				t.Errorf("the second press is named %+v; want %+v", e, tc.want)
			}
		})
	}

	// A listing of another window names nothing in this one.
	d := &closingDialog{listed: make(chan struct{}, 4)}
	s := &snapshot{src: d}
	s.refresh(context.Background(), "Old customer", time.Second)
	s.wait()
	if e := s.at("New customer", 200, 300); e != nil {
		t.Errorf("a listing of another window names the press: %+v", e)
	}

	// Without a listing the press stays unnamed, never named by a guess.
	q := &atOnly{closingDialog{}}
	if got := pressIn(t, q, nil, "New customer", image.Pt(100, 100), image.Pt(200, 300)); len(got) != 2 || got[1].Enrichment != nil {
		t.Errorf("without a listing: %s; want the OK click unnamed", describeSteps(got))
	}
}

// atOnly answers At alone: an Enricher that cannot list a window.
type atOnly struct{ d closingDialog }

func (a *atOnly) At(ctx context.Context, x, y int) (*events.Enrichment, error) {
	return a.d.At(ctx, x, y)
}
