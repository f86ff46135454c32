//go:build cgo

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// makePDF writes a PDF with one line of Helvetica text per page, with the
// exact xref offsets a strict reader wants.
func makePDF(pages []string) []byte {
	n := len(pages)
	kids := ""
	for i := range n {
		kids += fmt.Sprintf("%d 0 R ", 3+2*i)
	}
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids, n),
	}
	for i, text := range pages {
		content := fmt.Sprintf("BT /F1 12 Tf 72 700 Td (%s) Tj ET", text)
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>", 3+2*n, 4+2*i),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content))
	}
	objs = append(objs, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

func writePDF(t *testing.T, pages []string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(p, makePDF(pages), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRead(t *testing.T) {
	got, err := read("../../extract/testdata/pdf/invoice.pdf", maxPages, maxOutput)
	want := result{Pages: []string{"Invoice 4711\n\n", "Total 99.00\n\n"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("read(invoice.pdf) = %+v, %v; want %+v", got, err, want)
	}
}

func TestReadCaps(t *testing.T) {
	pages := make([]string, 12)
	for i := range pages {
		pages[i] = fmt.Sprintf("Page %d", i+1)
	}
	path := writePDF(t, pages)
	for _, tc := range []struct {
		pages, size, want int
	}{
		{pages: 100, size: 1 << 20, want: 12},
		{pages: 5, size: 1 << 20, want: 5},
		// Each page encodes to 12 bytes: "\"Page 1\\n\\n\"".
		{pages: 100, size: 30, want: 2},
	} {
		got, err := read(path, tc.pages, tc.size)
		if err != nil || len(got.Pages) != tc.want || got.Truncated != (tc.want < 12) {
			t.Errorf("read(12 pages, %d, %d) = %d pages, truncated %v, %v; want %d pages", tc.pages, tc.size, len(got.Pages), got.Truncated, err, tc.want)
		}
	}
}

func TestReadRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{dir, filepath.Join(dir, "missing.pdf")} {
		if _, err := read(path, maxPages, maxOutput); err == nil {
			t.Errorf("read(%s) = nil error; want one", path)
		}
	}
}
