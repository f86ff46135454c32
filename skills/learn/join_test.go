package learn

import (
	"errors"
	"maps"
	"reflect"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
)

func TestKey(t *testing.T) {
	for _, in := range []string{"First Name", "first_name", "First name:", "FIRST NAME", "first-name", "firstName", " First  Name * "} {
		if got := Key(in); got != "first_name" {
			t.Errorf("Key(%q) = %q; want first_name", in, got)
		}
	}
}

func TestJoin(t *testing.T) {
	header := []string{"first_name", "last_name", "email_address", "phone_number", "Company"}
	rows := [][]string{{"Ada", "Lovelace", "ada@example.test", "555 0101", "Initech"}}
	tests := []struct {
		label  string
		values []string
		rows   [][]string
		want   joinResult
	}{
		{"First Name:", nil, nil, joinResult{column: "first_name", how: "label"}},
		{"Phone", nil, nil, joinResult{column: "phone_number", how: "label"}},
		{"COMPANY", nil, nil, joinResult{column: "Company", how: "label"}},
		{"Given name", nil, nil, joinResult{}},
		{"Given name", []string{"Ada"}, rows, joinResult{column: "first_name", how: "sample values"}},
		{"Name", nil, nil, joinResult{candidates: []string{"first_name", "last_name"}, how: "label"}},
		{"Zip code", nil, nil, joinResult{}},
		// A boolean is no evidence: the label decides.
		{"Email", []string{"true"}, [][]string{{"true", "true", "x", "y", "z"}}, joinResult{column: "email_address", how: "label"}},
	}
	for _, tt := range tests {
		if got := join(tt.label, tt.values, header, tt.rows); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("join(%q, %v) = %+v; want %+v", tt.label, tt.values, got, tt.want)
		}
	}
}

func TestParseConfirm(t *testing.T) {
	got, err := ParseConfirm("# answers\nfirst_name = First Name\n\ncompany=const\nstatus=column:const\n")
	want := map[string]string{"first_name": "First Name", "company": "const", "status": "column:const"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ParseConfirm = %v, %v; want %v", got, err, want)
	}
	for _, bad := range []string{"first_name\n", "First Name=x\n", "a=b\na=c\n", "a=\n"} {
		if _, err := ParseConfirm(bad); err == nil {
			t.Errorf("ParseConfirm(%q) = nil error; want an error", bad)
		}
	}
}

func TestGeneralizeErrors(t *testing.T) {
	recs, opts := loadCase(t, "testdata/generalize/reordered_fields")
	if _, err := Generalize(nil, opts); !errors.Is(err, ErrNoRecordings) {
		t.Errorf("Generalize(nil) = %v; want ErrNoRecordings", err)
	}
	if _, err := Generalize(recs, Options{}); err == nil {
		t.Error("Generalize without a name = nil error; want an error")
	}
	broken := append([]events.Recording(nil), recs...)
	broken[1].RecordingID = "not an id"
	if _, err := Generalize(broken, opts); err == nil || !strings.HasPrefix(err.Error(), "recording 2: ") {
		t.Errorf("Generalize(bad recording) = %v; want an error about recording 2", err)
	}
	tests := []struct {
		confirm map[string]string
		header  []string
		want    string
	}{
		{map[string]string{"first_name": "const"}, nil,
			`bad answer: first_name=const, but "First Name" (step 2) changed between recordings, so it must come from a column`},
		{map[string]string{"first_name": "Vorname"}, []string{"First Name", "Email"},
			`bad answer: first_name=Vorname, but the CSV has no column "Vorname"; its columns are "First Name", "Email"`},
	}
	for _, tt := range tests {
		o := opts
		o.Confirm, o.Header = tt.confirm, tt.header
		_, err := Generalize(recs, o)
		if !errors.Is(err, ErrBadAnswer) || err.Error() != tt.want {
			t.Errorf("Generalize(confirm %v) = %v; want %s", tt.confirm, err, tt.want)
		}
	}
}

func TestFinalUnconfirmed(t *testing.T) {
	recs, opts := loadCase(t, "testdata/generalize/one_recording")
	d, err := Generalize(recs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if d.Ready() {
		t.Fatal("a one-recording draft without answers is Ready")
	}
	if _, err := d.Final(); !errors.Is(err, ErrUnconfirmed) {
		t.Errorf("Final() = %v; want ErrUnconfirmed", err)
	}
	if _, err := d.Final(); err != nil && strings.Contains(err.Error(), "Narnia") {
		t.Errorf("Final() error quotes a value: %v", err)
	}
}

// TestDemonstrated: the rows the recordings filed by hand are the sample's
// rows they demonstrated, so replay can leave them alone.
func TestDemonstrated(t *testing.T) {
	recs, opts := loadCase(t, "testdata/generalize/choices_differ_answered")
	d, err := Generalize(recs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Demonstrated) != 2 {
		t.Fatalf("Demonstrated = %+v; want the two recordings' rows", d.Demonstrated)
	}
	want := []map[string]string{
		{"first_name": "Ada", "plan": "pro", "country": "FR", "newsletter": "yes", "state": "Nevada", "notes": "Prefers email", "middle_name": ""},
		{"first_name": "Robert", "plan": "basic", "country": "CI", "newsletter": "no", "state": "Ohio", "notes": "", "middle_name": "Lee"},
	}
	for k, dm := range d.Demonstrated {
		if dm.RecordingID != recs[k].RecordingID || !maps.Equal(dm.Cells, want[k]) {
			t.Errorf("Demonstrated[%d] = %+v; want %s %v", k, dm, recs[k].RecordingID, want[k])
		}
	}
}
