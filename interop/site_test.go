package interop

import (
	"testing"

	"github.com/reprise-dev/reprise/interop/interoptest"
)

func newFormSite(t testing.TB) *interoptest.Site { return interoptest.NewSite(t) }

var rowsEqual = interoptest.RowsEqual
