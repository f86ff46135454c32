//go:build !cgo

// Command reprise-fitz, built without cgo: go-fitz would then load a MuPDF
// shared library at init and panic when there is none, so this build leaves
// it out and says how to build the real one.
package main

import (
	"fmt"
	"os"
)

// exitNoCgo tells extract.DocumentText that this helper cannot read documents.
const exitNoCgo = 3

func main() {
	fmt.Fprintln(os.Stderr, "reprise-fitz: built without cgo, cannot read documents; rebuild with CGO_ENABLED=1 and a C compiler")
	os.Exit(exitNoCgo)
}
