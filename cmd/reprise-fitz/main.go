//go:build cgo

// Command reprise-fitz prints the text of a document (PDF, EPUB, XPS, ...) as
// JSON, one string per page: {"pages": ["...", ...]}.
//
// It runs as its own process so that MuPDF, a C library parsing untrusted
// files, can only crash or hang itself, never the reprise daemon, and so that
// the reprise binary itself builds without cgo. extract.DocumentText runs it.
//
// Exit codes: 0 ok, 1 the document could not be read, 2 usage,
// 3 built without cgo (see main_nocgo.go).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/gen2brain/go-fitz"
)

const (
	// maxPages bounds the work done on one document.
	maxPages = 200
	// maxOutput bounds the JSON on stdout; pages past it are left out and
	// the output says "truncated". extract reads at most twice this.
	maxOutput = 8 << 20
)

type result struct {
	Pages     []string `json:"pages"`
	Truncated bool     `json:"truncated,omitempty"`
}

func main() {
	check := flag.Bool("check", false, "exit 0 when documents can be read (this build has MuPDF)")
	flag.Usage = func() { fmt.Fprintln(os.Stderr, "usage: reprise-fitz [-check] [--] DOCUMENT") }
	flag.Parse()
	if *check {
		return
	}
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	limitResources()
	res, err := read(flag.Arg(0), maxPages, maxOutput)
	if err != nil {
		// The message names the failing step only, never document content.
		fmt.Fprintln(os.Stderr, "reprise-fitz: "+err.Error())
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		fmt.Fprintln(os.Stderr, "reprise-fitz: write output:", err)
		os.Exit(1)
	}
}

// read returns the text of up to pages pages, stopping early when the
// encoded text would pass size bytes.
func read(path string, pages, size int) (result, error) {
	// MuPDF would happily walk a directory as an archive, and a FIFO would
	// block forever: accept regular files only.
	fi, err := os.Stat(path)
	if err != nil {
		return result{}, errors.New("open: no such file")
	}
	if !fi.Mode().IsRegular() {
		return result{}, errors.New("open: not a regular file")
	}
	doc, err := fitz.New(path)
	if err != nil {
		return result{}, fmt.Errorf("open: %w", err)
	}
	defer doc.Close()
	res := result{Pages: []string{}}
	total := 0
	for i := range doc.NumPage() {
		if i == pages {
			res.Truncated = true
			break
		}
		text, err := doc.Text(i)
		if err != nil {
			return result{}, fmt.Errorf("page %d: %w", i+1, err)
		}
		enc, _ := json.Marshal(text) // a string always marshals
		if total += len(enc); total > size {
			res.Truncated = true
			break
		}
		res.Pages = append(res.Pages, text)
	}
	return res, nil
}
