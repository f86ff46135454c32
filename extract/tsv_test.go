package extract

import (
	"image"
	"reflect"
	"strings"
	"testing"
)

const tsvHeader = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"

// tsvSample is the shape of tesseract 5.3's output for a two-line form.
const tsvSample = tsvHeader +
	"1\t1\t0\t0\t0\t0\t0\t0\t1280\t800\t-1\t\n" +
	"2\t1\t1\t0\t0\t0\t40\t30\t300\t80\t-1\t\n" +
	"3\t1\t1\t1\t0\t0\t40\t30\t300\t80\t-1\t\n" +
	"4\t1\t1\t1\t1\t0\t40\t30\t200\t30\t-1\t\n" +
	"5\t1\t1\t1\t1\t1\t40\t30\t80\t30\t96.5\tFirst\n" +
	"5\t1\t1\t1\t1\t2\t130\t30\t90\t30\t95.1\tName\n" +
	"4\t1\t1\t1\t2\t0\t40\t80\t120\t30\t-1\t\n" +
	"5\t1\t1\t1\t2\t1\t40\t80\t120\t30\t91\tEmail\n" +
	"5\t1\t2\t1\t1\t1\t40\t200\t10\t10\t12\t \n"

func TestParseTSV(t *testing.T) {
	got, err := ParseTSV(strings.NewReader(tsvSample))
	if err != nil {
		t.Fatal(err)
	}
	want := []Word{
		{Text: "First", Box: image.Rect(40, 30, 120, 60), Conf: 96.5, Block: 1, Par: 1, Line: 1},
		{Text: "Name", Box: image.Rect(130, 30, 220, 60), Conf: 95.1, Block: 1, Par: 1, Line: 1},
		{Text: "Email", Box: image.Rect(40, 80, 160, 110), Conf: 91, Block: 1, Par: 1, Line: 2},
	}
	if !reflect.DeepEqual(got.Words, want) {
		t.Errorf("ParseTSV(sample).Words = %+v; want %+v", got.Words, want)
	}
	if got, want := got.Text(), "First Name\nEmail"; got != want {
		t.Errorf("Text() = %q; want %q", got, want)
	}
}

func TestParseTSVErrors(t *testing.T) {
	const secret = "Hunter2Secret"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"few fields", tsvHeader + "5\t1\t1\n", "tsv line 2: want 12"},
		{"many fields", tsvHeader + "5\t1\t1\t1\t1\t1\t0\t0\t1\t1\t90\t" + secret + "\textra\n", "tsv line 2: want 12"},
		{"bad number", tsvHeader + "5\t1\t1\t1\t1\t1\tx\t0\t1\t1\t90\t" + secret + "\n", "tsv line 2: field left"},
		{"negative", "5\t1\t1\t1\t1\t1\t0\t0\t-4\t1\t90\t" + secret + "\n", "tsv line 1: field width"},
		{"huge box", "5\t1\t1\t1\t1\t1\t0\t0\t99999999999\t1\t90\t" + secret + "\n", "tsv line 1: field width"},
		{"nan conf", "5\t1\t1\t1\t1\t1\t0\t0\t1\t1\tNaN\t" + secret + "\n", "tsv line 1: field conf"},
		{"long line", tsvHeader + strings.Repeat("x", maxTSVLine+1), "tsv line 2: longer than"},
	} {
		_, err := ParseTSV(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ParseTSV = %v; want an error containing %q", tc.name, err, tc.want)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("%s: ParseTSV error %q quotes the recognized text", tc.name, err)
		}
	}
}

func TestLinesEmpty(t *testing.T) {
	if got := (OCRResult{}).Lines(); got != nil {
		t.Errorf("Lines() of no words = %q; want nil", got)
	}
}

func FuzzParseTSV(f *testing.F) {
	for _, s := range []string{
		tsvSample, tsvHeader, "", "\n\n", "level\t", "5\t1\t1\t1\t1\t1\t0\t0\t1\t1\t90\n",
		"5\t1\t1\t1\t1\t1\t0\t0\t1\t1\t-1\tword\r\n", "5\t1\t1\t1\t1\t1\t16777216\t16777216\t16777216\t16777216\t100\tw\n",
		"5\t1\t1\t1\t1\t1\t+0\t0\t1\t1\t1e2\tw\n", "5\t\t\t\t\t\t\t\t\t\t\t\n", "\t\t\t\t\t\t\t\t\t\t\t\t\t",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		res, err := ParseTSV(strings.NewReader(string(in)))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "tsv line ") {
				t.Fatalf("ParseTSV error %q does not name its line", err)
			}
			return
		}
		for _, w := range res.Words {
			if w.Text == "" || w.Box.Min.X < 0 || w.Box.Min.Y < 0 || w.Box.Dx() < 0 || w.Box.Dy() < 0 {
				t.Fatalf("ParseTSV gave a bad word %+v", w)
			}
		}
		if n := len(res.Lines()); n > len(res.Words) {
			t.Fatalf("Lines() = %d lines for %d words", n, len(res.Words))
		}
	})
}
