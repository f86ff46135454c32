package floor

import (
	"github.com/reprise-dev/reprise/capture/desktop"
	"github.com/reprise-dev/reprise/platform/ax/atspi"
	"github.com/reprise-dev/reprise/platform/ax/axmac"
	"github.com/reprise-dev/reprise/platform/ax/msaa"
	"github.com/reprise-dev/reprise/platform/ax/uia"
)

// Every OS's accessibility tree is what a desktop source asks about a
// step's point, whichever OS this test is built on.
var (
	_ desktop.Enricher = (*atspi.Enricher)(nil)
	_ desktop.Enricher = (*axmac.Enricher)(nil)
	_ desktop.Enricher = (*msaa.Enricher)(nil)
	_ desktop.Enricher = (*uia.Client)(nil)
)
