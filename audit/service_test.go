package audit

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/events"

	"github.com/reprise-dev/reprise/ops"
)

// The CLI asks the daemon to verify; the key never leaves the daemon.
func TestServeVerifyAsCLI(t *testing.T) {
	s, nc, js := startJS(t)
	l := openLog(t, js, testKey)
	appendN(t, l, 4)
	stop, err := Serve(nc, js, testKey, l.Head)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	cli := connectCLI(t, s)

	r, err := RequestVerify(testCtx(t), cli)
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK || r.Messages != 4 || r.Head.Seq != 4 {
		t.Fatalf("RequestVerify = %+v; want OK over 4 entries", r)
	}

	forgedAt := publishRaw(t, js, forge(t, 5, l.Head().MAC))
	r, err = RequestVerify(testCtx(t), cli)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := wheres(r.Problems), []where{{ProblemForged, forgedAt, 5}}; r.OK || !slices.Equal(got, want) {
		t.Fatalf("RequestVerify after a forgery = ok %v, %v; want %v", r.OK, got, want)
	}
	if !errors.Is(r.Err(), ErrTampered) {
		t.Errorf("Report.Err() = %v; want ErrTampered", r.Err())
	}

	stop()
	if _, err := RequestVerify(testCtx(t), cli); err == nil || !strings.Contains(err.Error(), "does not serve") {
		t.Errorf("RequestVerify after stop = %v; want a no-responder error saying what to do", err)
	}
}

func TestServeMalformedRequest(t *testing.T) {
	_, nc, js := startJS(t)
	stop, err := Serve(nc, js, testKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	bodies := []string{"not json", `{"checkpoint":{"seq":1}}`, `[]`, `{} {}`, `{`, `"x"`, strings.Repeat(" ", 10) + strings.Repeat("x", 2000)}
	for _, body := range bodies {
		m, err := nc.Request(events.LocalAuditVerify, []byte(body), 5*time.Second)
		if err != nil {
			t.Fatalf("request %q: %v", body, err)
		}
		var r VerifyReply
		if err := json.Unmarshal(m.Data, &r); err != nil {
			t.Fatalf("reply to %q is not JSON: %v", body, err)
		}
		var e *ops.Error
		if !errors.As(ops.ReplyError(m), &e) || e.Code != ops.CodeInvalidRequest || e.Message == "" || r.Report != nil {
			t.Errorf("reply to %q = %s %v; want an INVALID_REQUEST refusal and no report", body, m.Data, m.Header)
		}
	}
	for _, body := range []string{"", "{}", " {} \n"} {
		m, err := nc.Request(events.LocalAuditVerify, []byte(body), 5*time.Second)
		if err != nil {
			t.Fatalf("request %q: %v", body, err)
		}
		var r VerifyReply
		if err := json.Unmarshal(m.Data, &r); err != nil || r.Report == nil || !r.Report.OK {
			t.Errorf("reply to %q = %s; want an OK report", body, m.Data)
		}
	}
}

func TestServeRefusesBadSetup(t *testing.T) {
	_, nc, js := startJS(t)
	if _, err := Serve(nc, js, []byte("short"), nil); err == nil {
		t.Error("Serve with a 5-byte key = nil; want an error")
	}
	if _, err := Serve(nil, js, testKey, nil); err == nil {
		t.Error("Serve without a connection = nil; want an error")
	}
}

// TestServeReportsUnwrittenEntries: entries the daemon could not append
// (a full disk) make verification fail, though the chain itself is whole.
func TestServeReportsUnwrittenEntries(t *testing.T) {
	s, nc, js := startJS(t)
	l := openLog(t, js, testKey)
	appendN(t, l, 2)
	stop, err := Serve(nc, js, testKey, l.Head, WithUnwritten(func() Unwritten { return Unwritten{Lost: 3} }))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	r, err := RequestVerify(testCtx(t), connectCLI(t, s))
	if err != nil {
		t.Fatal(err)
	}
	if r.OK || len(r.Problems) != 1 || r.Problems[0].Kind != ProblemUnwritten || !strings.Contains(r.Problems[0].Detail, "3 entries") {
		t.Fatalf("report %+v; want the 3 unwritten entries reported", r)
	}
}
