package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/interop"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/skillbook"
)

func newSkillImportCmd(g *globals) *cobra.Command {
	var f buildFlags
	cmd := &cobra.Command{
		Use:   "import FILE...",
		Short: "Import Chrome DevTools Recorder flows or Selenium IDE projects as recordings to build a skill from",
		Long: `Read each file (a Chrome DevTools Recorder JSON flow, or a Selenium IDE .side project,
one recording per test) into a recording, as if it had been demonstrated here: every
selector alternative is kept, in reprise's order of stability. A step with no reprise
equivalent is refused with its line; a step reprise does by itself (a Tab between
fields, a scroll, a wait for the next element) is absorbed, and a note says so.

Imported recordings go through the same gate as demonstrations: review them, then
build. With --name, the draft's questions are shown now, and the commands to review
and build are printed. Two imported flows of one task generalize like two
demonstrations: what differs between them is a parameter.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var flows []interop.Flow
			for _, file := range args {
				fs, err := interop.ImportFile(file)
				if err != nil {
					return err
				}
				flows = append(flows, fs...)
			}
			req, err := f.request(cmd.InOrStdin(), nil)
			if err != nil {
				return err
			}
			return g.with(cmd, func(ctx context.Context, c *client.Client) error {
				out := cmd.OutOrStdout()
				for _, flow := range flows {
					sum, err := c.Import(ctx, ops.ImportRequest{Format: flow.Format, Steps: flow.Steps})
					if err != nil {
						return fmt.Errorf("import %s: %w", flow.File, err)
					}
					flow.WriteImported(out, sum.RecordingID, sum.StepCount)
					req.Recordings = append(req.Recordings, sum.RecordingID)
				}
				if strings.TrimSpace(f.name) != "" {
					draft, err := c.DraftSkill(ctx, req)
					if err != nil {
						return fmt.Errorf("draft the skill: %w", err)
					}
					skillbook.WriteNotes(out, draft.Notes)
					skillbook.WriteQuestions(out, draft.Questions)
				}
				ids := strings.Join(req.Recordings, " ")
				fmt.Fprintf(out, "next: read the steps (reprise recordings show REC), apply your review to each:\n")
				for _, id := range req.Recordings {
					fmt.Fprintf(out, "  reprise recordings review %s\n", id)
				}
				build := "  reprise skill build " + ids + " --name " + shellQuote(cmp.Or(strings.TrimSpace(f.name), "NAME"))
				if f.rows != "" {
					build += " --rows " + shellQuote(f.rows)
				}
				fmt.Fprintf(out, "then build the skill:\n%s\n", build)
				return nil
			})
		},
	}
	f.add(cmd.Flags(), "the skill's name: shows the draft's questions now")
	return cmd
}

func newSkillExportCmd(g *globals) *cobra.Command {
	var revision uint64
	var output, format, csvPath string
	var row int
	cmd := &cobra.Command{
		Use:   "export SKILL",
		Short: "Write a skill to a file: as reprise YAML, a Chrome Recorder flow, an @puppeteer/replay script or a Playwright test",
		Long: `Write a saved skill for another tool, to run without reprise:

  --format reprise           the skill's YAML, to edit, share or keep (the default)
  --format chrome-recorder   a Chrome DevTools Recorder flow filled with one row of
                             --rows (--row N, default 1): import it in the Recorder
                             panel, or replay it with @puppeteer/replay
  --format puppeteer-replay  a Node script replaying the flow with @puppeteer/replay
                             for every row of --rows
  --format playwright        an @playwright/test spec: one test per row of --rows,
                             elements found by role and name first

What reprise does that the other tool cannot (exactly once, resume, read-backs,
dedupe, success checks) is stated at the top of the script, never silently lost.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(interop.ExportFormats, format) {
				return fmt.Errorf("--format must be one of %s", strings.Join(interop.ExportFormats, ", "))
			}
			if row < 1 {
				return errors.New("--row counts data rows from 1")
			}
			if format != interop.ExportReprise && csvPath == "" {
				return fmt.Errorf("--format %s needs --rows: the CSV the exported flow fills", format)
			}
			return g.with(cmd, func(ctx context.Context, c *client.Client) error {
				reply, err := c.Skill(ctx, args[0], revision)
				if err != nil {
					return err
				}
				doc, notes, err := interop.Export(format, []byte(reply.YAML), csvPath, row, output)
				var few *interop.RowsError
				if errors.As(err, &few) {
					err = fmt.Errorf("--row %d: %s has %d data rows", row, csvPath, few.Rows)
				}
				if err != nil {
					return fmt.Errorf("export skill %s as %s: %w", reply.ID, format, err)
				}
				for _, n := range notes {
					fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", n)
				}
				if output == "" || output == "-" {
					_, err := cmd.OutOrStdout().Write(doc)
					return err
				}
				if err := os.WriteFile(output, doc, 0o600); err != nil {
					return fmt.Errorf("export skill %s: %w", reply.ID, err)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "wrote %s revision %d to %s (%s)\n", reply.ID, reply.Revision, output, format)
				return nil
			})
		},
	}
	cmd.Flags().Uint64Var(&revision, "revision", 0, "a saved version (default: the newest)")
	cmd.Flags().StringVarP(&output, "output", "o", "", "the file to write (default: standard output)")
	cmd.Flags().StringVar(&format, "format", interop.ExportReprise, "reprise, chrome-recorder, puppeteer-replay or playwright")
	cmd.Flags().StringVar(&csvPath, "rows", "", "the CSV the exported flow or script fills")
	cmd.Flags().IntVar(&row, "row", 1, "with chrome-recorder: the data row whose values fill the flow")
	return cmd
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
