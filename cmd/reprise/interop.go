package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/interop"
	"github.com/reprise-dev/reprise/interop/live"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/skillbook"
	"github.com/reprise-dev/reprise/skills"
)

func newSkillImportCmd(g *globals) *cobra.Command {
	var f buildFlags
	var resolve bool
	cmd := &cobra.Command{
		Use:   "import FILE...",
		Short: "Import Chrome DevTools Recorder flows or Selenium IDE projects as recordings to build a skill from, or skill files",
		Long: `A skill file (.yaml or .yml: written by hand, edited, or healed) goes into the skill
book through the same validation as a built skill: as the first revision of a new skill,
or, when a skill has its name, as that skill's proposed revision, to see with
` + "`reprise skill show SKILL --pending`" + ` and save with ` + "`reprise skill accept SKILL`" + `.

Any other file (a Chrome DevTools Recorder JSON flow, or a Selenium IDE .side project,
one recording per test) is read into a recording, as if it had been demonstrated here: every
selector alternative is kept, in reprise's order of stability. A step with no reprise
equivalent is refused with its line; a step reprise does by itself (a Tab between
fields, a scroll, a wait for the next element) is absorbed, and a note says so.

Imported recordings go through the same gate as demonstrations: review them, then
build. With --name, the draft's questions are shown now, and the commands to review
and build are printed. Two imported flows of one task generalize like two
demonstrations: what differs between them is a parameter.

Tools write less than reprise records: the Recorder names an element alone when its
name is unique, Selenium IDE records a click on a box as a click and text typed into a
list as typing. --resolve opens each page a flow navigates to (a fresh profile,
headless) and reads each step's element there, as a demonstration would have: a click
on a box becomes the box's state after it, typing into a list its option, a click on
a radio button the choice of its group, and a list's options are kept, so an option
given by its value is filed by its label. It only reads: the steps after a submit or
a click that leads elsewhere stay as written, and a note names them.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if slices.ContainsFunc(args, isSkillFile) {
				if resolve {
					return errors.New("--resolve reads the pages of imported flows: a skill file is a skill already")
				}
				return importSkillFiles(cmd, g, f, args)
			}
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
			if resolve {
				if err := live.Resolve(cmd.Context(), flows, "--resolve: "); err != nil {
					return fmt.Errorf("--resolve: %w", err)
				}
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
	cmd.Flags().BoolVar(&resolve, "resolve", false, "open the pages each flow navigates to in a headless browser and read its elements there (roles, boxes, lists and their options); it never clicks, types or submits")
	return cmd
}

// isSkillFile says whether file is named as a skill file is.
func isSkillFile(file string) bool {
	ext := strings.ToLower(filepath.Ext(file))
	return ext == ".yaml" || ext == ".yml"
}

// importSkillFiles brings skill files into the skill book, each under the
// id its name gives.
func importSkillFiles(cmd *cobra.Command, g *globals, f buildFlags, files []string) error {
	if f.name != "" || f.rows != "" || f.confirmFile != "" || len(f.confirm) > 0 {
		return errors.New("--name, --rows, --confirm and --confirm-file build a skill from imported flows: a skill file is a skill already")
	}
	type file struct{ path, id, doc string }
	var skillFiles []file
	for _, path := range files {
		if !isSkillFile(path) {
			return fmt.Errorf("%s is not a skill file (.yaml): import skill files and flows separately", path)
		}
		s, doc, err := skills.ReadFile(path)
		if err != nil {
			return err
		}
		id, err := skillbook.ID(s.Name)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		skillFiles = append(skillFiles, file{path, id, string(doc)})
	}
	return g.with(cmd, func(ctx context.Context, c *client.Client) error {
		out := cmd.OutOrStdout()
		for _, sf := range skillFiles {
			r, err := c.Pending(ctx, api.SkillPendingRequest{SkillID: sf.id, Op: api.SkillPendingImport, YAML: sf.doc})
			if err != nil {
				return fmt.Errorf("import %s: %w", sf.path, err)
			}
			if r.Revision != 0 {
				fmt.Fprintf(out, "saved skill %s, revision %d, from %s\n", sf.id, r.Revision, sf.path)
				continue
			}
			fmt.Fprintf(out, "%s is proposed as the next revision of skill %s (made from revision %d): see it with `reprise skill show %s --pending`, save it with `reprise skill accept %s`\n",
				sf.path, sf.id, r.Base, sf.id, sf.id)
		}
		return nil
	})
}

func newSkillExportCmd(g *globals) *cobra.Command {
	var revision uint64
	var output, format, csvPath string
	var row int
	cmd := &cobra.Command{
		Use:   "export SKILL|FILE",
		Short: "Write a skill to a file: as reprise YAML, a Chrome Recorder flow, an @puppeteer/replay script or a Playwright test",
		Long: `Write a saved skill, or a skill file, for another tool, to run without reprise:

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
			// what names the skill in what is printed: its id and revision,
			// or its file.
			export := func(what, doc string) error {
				out, notes, err := interop.Export(format, []byte(doc), csvPath, row, output)
				var few *interop.RowsError
				if errors.As(err, &few) {
					err = fmt.Errorf("--row %d: %s has %d data rows", row, csvPath, few.Rows)
				}
				if err != nil {
					return fmt.Errorf("export %s as %s: %w", what, format, err)
				}
				for _, n := range notes {
					fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", n)
				}
				if output == "" || output == "-" {
					_, err := cmd.OutOrStdout().Write(out)
					return err
				}
				if err := os.WriteFile(output, out, 0o600); err != nil {
					return fmt.Errorf("export %s: %w", what, err)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "wrote %s to %s (%s)\n", what, output, format)
				return nil
			}
			if st, err := os.Stat(args[0]); err == nil && st.Mode().IsRegular() {
				if revision != 0 {
					return fmt.Errorf("--revision names a saved version of a kept skill; %s is a skill file", args[0])
				}
				_, doc, err := skills.ReadFile(args[0])
				if err != nil {
					return err
				}
				return export(args[0], string(doc))
			}
			return g.with(cmd, func(ctx context.Context, c *client.Client) error {
				reply, err := c.Skill(ctx, args[0], revision)
				if err != nil {
					return err
				}
				return export(fmt.Sprintf("skill %s revision %d", reply.ID, reply.Revision), reply.YAML)
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
