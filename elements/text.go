package elements

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText prints l for a person: one element per line, indented by
// depth, then what a tried selector matched. limit names the listing's
// limit as the person sets it, for a listing cut short.
func WriteText(w io.Writer, l Listing, limit string) error {
	fmt.Fprintf(w, "%s: %q\n", l.Source, l.Window)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tROLE\tNAME\tID\tVALUE\tBOUNDS\tPATH")
	depth := map[int]int{}
	for _, e := range l.Elements {
		d := 0
		if pd, ok := depth[e.Parent]; ok && l.Match == nil {
			d = pd + 1
		}
		depth[e.Index] = d
		fmt.Fprintf(tw, "%d\t%s%s\t%s\t%s\t%s\t%d,%d %dx%d\t%s\n", e.Index, strings.Repeat("  ", d), e.Role,
			quote(e.Name), e.ID, quote(e.Value), e.Bounds[0], e.Bounds[1], e.Bounds[2], e.Bounds[3], e.Path)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if l.Truncated {
		fmt.Fprintf(w, "(more elements than %s; raise it to see them)\n", limit)
	}
	if m := l.Match; m != nil {
		switch m.Code {
		case "":
			fmt.Fprintf(w, "%s matches exactly one element\n", m.Selector)
		default:
			fmt.Fprintf(w, "%s: %s\n", m.Code, m.Message)
		}
	}
	return nil
}

func quote(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf("%q", s)
}
