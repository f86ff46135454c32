package api

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteText writes st as a table of what the daemon serving the data dir
// home reports, a line a thing, as `reprise status` prints it.
func (st Status) WriteText(w io.Writer, home string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "daemon\trunning (pid %d, up %s, %s)\n", st.PID, time.Duration(st.UptimeSeconds*float64(time.Second)).Round(time.Second), st.Version)
	fmt.Fprintf(tw, "machine\t%s\n", st.MachineID)
	fmt.Fprintf(tw, "data dir\t%s\n", home)
	fmt.Fprintf(tw, "cli\t%s\n", st.ClientURL)
	fmt.Fprintf(tw, "extension\t%s\n", st.WebSocketURL)
	fmt.Fprintf(tw, "platform\t%s\n", st.Platform)
	fmt.Fprintf(tw, "keys\t%s\n", st.Keys)
	for _, s := range st.Streams {
		lost := ""
		if s.Lost > 0 {
			lost = fmt.Sprintf(", %d lost (damaged on disk)", s.Lost)
		}
		fmt.Fprintf(tw, "stream %s\t%d messages, %d bytes%s\n", s.Name, s.Messages, s.Bytes, lost)
	}
	if r := st.Recording; r != nil {
		lost := ""
		if r.Lost > 0 {
			lost = fmt.Sprintf(", %d lost", r.Lost)
		}
		fmt.Fprintf(tw, "recording\t%s: %d steps%s\n", r.ID, r.Steps, lost)
	}
	fmt.Fprintf(tw, "store\t%s\n", st.StoreState())
	fmt.Fprintf(tw, "disk\t%s\n", st.DiskState())
	for _, d := range st.Damaged {
		fmt.Fprintf(tw, "damaged\t%s: %s\n", d.RecordingID, d.Problem)
	}
	return tw.Flush()
}

// StoreProblem is what keeps the store from taking a recording, or
// keeps a recording from being used: too little disk, or recordings the
// start-up check found damaged; nil when there is neither.
func (st Status) StoreProblem() error {
	if st.FreeBytes < st.MinFreeBytes {
		return fmt.Errorf("the disk %s", st.DiskState())
	}
	if len(st.Damaged) > 0 {
		var ids []string
		for _, d := range st.Damaged {
			ids = append(ids, d.RecordingID+" ("+d.Problem+")")
		}
		return errors.New("damaged: " + strings.Join(ids, "; "))
	}
	return nil
}
