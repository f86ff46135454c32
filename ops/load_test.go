package ops

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestBusyPastTheLimit holds the service so requests pile up: past
// MaxConcurrent the shim answers BUSY at once, and never runs more at a time.
func TestBusyPastTheLimit(t *testing.T) {
	release := make(chan struct{})
	svc := &fakeService{start: func(ctx context.Context, _ StartRequest) (Started, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return Started{RecordingID: "rec_x"}, nil
	}}
	const limit = 4
	h := newHarness(t, svc, Config{MaxConcurrent: limit})
	nc := h.client(t)

	var wg sync.WaitGroup
	codes := make(chan string, 3*limit)
	for i := range 3 * limit {
		wg.Add(1)
		go func() {
			defer wg.Done()
			env := request(t, nc, fmt.Sprintf(`{"type":"START_RECORDING","id":"hold-%d","payload":{}}`, i))
			codes <- errorCode(t, env)
		}()
	}
	// The BUSY answers come back while the others are held.
	busy := 0
	for busy < 2*limit {
		select {
		case c := <-codes:
			if c != CodeBusy {
				t.Fatalf("a request answered %q while %d were held; want BUSY", c, limit)
			}
			busy++
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d BUSY answers", busy)
		}
	}
	close(release)
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != "" {
			t.Errorf("a held request answered ERROR %s; want RECORDING_STARTED", c)
		}
	}
	if p := h.srv.Peak(); p > limit {
		t.Fatalf("peak in flight %d; want <= %d", p, limit)
	}
	// A BUSY answer is not the request's for good: a retry is served.
	if env := request(t, nc, `{"type":"START_RECORDING","id":"hold-0","payload":{}}`); env.Type != TypeStarted {
		t.Errorf("retry after BUSY answered %s %s", env.Type, env.Payload)
	}
}

// TestThousandMalformedRequests: 20 clients send 50 malformed requests each;
// every one is answered with an ERROR and a code, the in-flight limit holds,
// and the shim still serves a valid request.
func TestThousandMalformedRequests(t *testing.T) {
	h := newHarness(t, &fakeService{}, Config{})
	bodies := []string{
		``, `{`, `[1,2]`, `{"type":"X","id":"i"}`, `{"type":"START_RECORDING","id":"i","payload":{"mode":[]}}`,
		`{"id":"i","payload":{}}`, `{"type":"STOP_RECORDING","id":"i","payload":{"recording_id":5}}`,
		`{"type":"APPLY_RECORDING_REVIEW","id":"i","payload":{"removed_step_seqs":{}}}`, "\x00\xff\xfe", `"string"`,
	}
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for c := range 20 {
		nc := h.client(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				body := bodies[(c+i)%len(bodies)]
				if len(body) > 5 && body[0] == '{' {
					body = fmt.Sprintf(`{"type":"X%d","id":"c%d-%d"}`, i, c, i) // unique ids, unknown type
					if i%2 == 0 {
						body = bodies[(c+i)%len(bodies)]
					}
				}
				m, err := nc.Request(subject, []byte(body), 10*time.Second)
				if err != nil {
					errs <- fmt.Errorf("client %d request %d: %w", c, i, err)
					continue
				}
				var env Envelope
				var e Error
				if json.Unmarshal(m.Data, &env) != nil || env.Type != TypeError || json.Unmarshal(env.Payload, &e) != nil || e.Code == "" {
					errs <- fmt.Errorf("client %d request %d (%q) answered %s; want ERROR with a code", c, i, body, m.Data)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if p := h.srv.Peak(); p > DefaultMaxConcurrent {
		t.Errorf("peak in flight %d; want <= %d", p, DefaultMaxConcurrent)
	}
	if env := request(t, h.client(t), `{"type":"STOP_RECORDING","id":"after","payload":{"recording_id":"rec_1"}}`); env.Type != TypeSummary {
		t.Fatalf("valid request after the storm answered %s %s", env.Type, env.Payload)
	}
}
