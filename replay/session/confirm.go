package session

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/reprise-dev/reprise/internal/termtext"
)

// ConfirmOn asks the person at a terminal to check a run's first rows
// (RunOptions.Confirm): it lists them and their snapshots on out, says the
// last one is on screen when shown, and takes y or yes on in; anything
// else, and input that ends, is no.
func ConfirmOn(in io.Reader, out io.Writer, shown bool) func(context.Context, []int, []string) (bool, error) {
	return func(_ context.Context, rowNums []int, snaps []string) (bool, error) {
		fmt.Fprintf(out, "\nrows %v are filled and not submitted.\n", rowNums)
		for i, s := range snaps {
			if s != "" {
				fmt.Fprintf(out, "  row %d as filled: %s\n", rowNums[i], termtext.Line(s))
			}
		}
		if shown {
			fmt.Fprintln(out, "  (the last one is on screen)")
		}
		fmt.Fprint(out, "submit them and run the rest unattended? [y/N] ")
		line, err := bufio.NewReader(in).ReadString('\n')
		if err != nil && line == "" {
			return false, nil
		}
		a := strings.ToLower(strings.TrimSpace(line))
		return a == "y" || a == "yes", nil
	}
}
