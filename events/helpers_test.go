package events

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/vmihailenco/msgpack/v5"
)

// planted is the raw value of every secret in the malformed fixtures: no
// error message may repeat it.
const planted = "hunter2"

// goldenFiles returns the paths of the fixtures matching pattern, failing
// the test when there are none (a renamed folder must not pass silently).
func goldenFiles(t testing.TB, pattern string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures match testdata/%s (err %v)", pattern, err)
	}
	return paths
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// generic decodes JSON into plain Go values, numbers as float64, so two
// documents compare by meaning rather than by layout.
func generic(t testing.TB, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("unmarshal %.40q: %v", b, err)
	}
	return v
}

// genericMsgpack decodes msgpack into plain Go values with every number as
// float64, comparable with generic's output.
func genericMsgpack(t testing.TB, b []byte) any {
	t.Helper()
	var v any
	if err := msgpack.Unmarshal(b, &v); err != nil {
		t.Fatalf("msgpack unmarshal: %v", err)
	}
	return floatNumbers(v)
}

func floatNumbers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = floatNumbers(e)
		}
	case []any:
		for i, e := range v {
			v[i] = floatNumbers(e)
		}
	default:
		if rv := reflect.ValueOf(v); rv.IsValid() && rv.CanConvert(float64Type) {
			return rv.Convert(float64Type).Float()
		}
	}
	return v
}

var float64Type = reflect.TypeFor[float64]()

func mustMsgpack(v any) []byte {
	b, err := msgpack.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// jsonToMsgpack re-encodes a JSON document as msgpack the way another
// writer would: integers as integers, other numbers as float64, keys as is.
func jsonToMsgpack(t testing.TB, b []byte) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("jsonToMsgpack: %v", err)
	}
	return mustMsgpack(jsonNumbers(v))
}

func jsonNumbers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = jsonNumbers(e)
		}
	case []any:
		for i, e := range v {
			v[i] = jsonNumbers(e)
		}
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	}
	return v
}

// specStep is the step of SPEC section 4, as a value.
func specStep(t testing.TB) *Step {
	t.Helper()
	s, err := DecodeStepJSON(readFile(t, "testdata/steps/spec_fill.json"))
	if err != nil {
		t.Fatalf("DecodeStepJSON(spec_fill.json) = %v; want nil", err)
	}
	return s
}

// startJetStream runs a real NATS server, in this process and listening on
// nothing, with a file store under a temporary directory, and returns a
// JetStream context on an in-process connection. Cleanup closes the
// connection, then the server. (Not the shim's embedded server: embedded
// imports events for its subjects.)
func startJetStream(t testing.TB, opts ...jetstream.JetStreamOpt) (*nats.Conn, jetstream.JetStream) {
	t.Helper()
	s, err := server.NewServer(&server.Options{JetStream: true, StoreDir: t.TempDir(), DontListen: true, NoSigs: true})
	if err != nil {
		t.Fatalf("start nats-server: %v", err)
	}
	s.Start()
	t.Cleanup(s.Shutdown)
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server not ready")
	}
	nc, err := nats.Connect("", nats.InProcessServer(s), nats.Name("events-test"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc, opts...)
	if err != nil {
		t.Fatalf("jetstream.New: %v", err)
	}
	return nc, js
}

// ensured is startJetStream followed by EnsureStores.
func ensured(t testing.TB, opts ...jetstream.JetStreamOpt) (*nats.Conn, jetstream.JetStream) {
	t.Helper()
	nc, js := startJetStream(t, opts...)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := EnsureStores(ctx, js); err != nil {
		t.Fatalf("EnsureStores: %v", err)
	}
	return nc, js
}

func testContext(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	t.Cleanup(cancel)
	return ctx
}
