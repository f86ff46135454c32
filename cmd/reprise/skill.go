package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/internal/termtext"
	"github.com/reprise-dev/reprise/skillbook"
	"github.com/reprise-dev/reprise/skills"
	"github.com/reprise-dev/reprise/skills/learn"
)

func newSkillCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "skill",
		Short: "Build skills from reviewed recordings or imported flows, and list, show, export and check them",
	}
	cmd.AddCommand(newSkillBuildCmd(g), newSkillImportCmd(g), newSkillListCmd(g), newSkillShowCmd(g), newSkillAcceptCmd(g), newSkillExportCmd(g), newSkillValidateCmd())
	return cmd
}

func newSkillBuildCmd(g *globals) *cobra.Command {
	var f buildFlags
	cmd := &cobra.Command{
		Use:   "build REC...",
		Short: "Generalize reviewed recordings of one task into a skill",
		Long: `Align the recordings step by step: what changed between them becomes a parameter,
what did not a constant. A radio group, list or combo box is one choice whose option
is a parameter; a checkbox or switch, its end state. Parameters are joined to the
columns of --rows by their labels (and by the demonstrated values, when the sample
has them), and every column of --rows must be accounted for. What a submit must
show to count as filed is taken from what every recording showed after it. Anything
that cannot be confirmed this way is a question; answer it with --confirm and build
again. The skill saves only when every question is answered.

  --confirm first_name="First Name"   read first_name from that CSV column
  --confirm company=const             company is the same for every row
  --confirm plan/gold=Enterprise      the cell "gold" means the option Enterprise
  --confirm newsletter/oui=yes        the cell "oui" means checked
  --confirm notes/optional=yes        an empty cell leaves Notes empty
  --confirm column:internal=ignore    no field takes the column "internal"
  --confirm column:middle="Middle name"  the column fills that untouched field
  --confirm field:Fax=ignore          the untouched field Fax stays as it is
  --confirm "success:9=text:Customer created"  what shows step 9 worked`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(f.name) == "" {
				return errors.New("--name is required: what the skill does, such as \"new customer\"")
			}
			req, err := f.request(cmd.InOrStdin(), args)
			if err != nil {
				return err
			}
			build := func(ctx context.Context, c *client.Client) (api.SkillBuildReply, error) {
				return c.BuildSkill(ctx, req)
			}
			return call(g, cmd, "", build, func(out io.Writer, reply api.SkillBuildReply) error {
				skillbook.WriteNotes(out, reply.Notes)
				if !reply.Saved {
					fmt.Fprintf(out, "%d question(s) before the skill can be saved:\n", len(reply.Questions))
					skillbook.WriteQuestions(out, reply.Questions)
					fmt.Fprintln(out, "answer each with --confirm KEY=ANSWER as the question says (or one a line in --confirm-file), and build again")
					return fmt.Errorf("skill not saved: %d question(s) open", len(reply.Questions))
				}
				fmt.Fprintf(out, "saved skill %s, revision %d\n", reply.SkillID, reply.Revision)
				return nil
			})
		},
	}
	f.add(cmd.Flags(), "the skill's name (required)")
	return cmd
}

func newSkillListCmd(g *globals) *cobra.Command {
	list := func(ctx context.Context, c *client.Client, _ []string) (api.SkillListReply, error) {
		return c.Skills(ctx)
	}
	return query(g, &cobra.Command{Use: "list", Short: "List the skills kept, newest version of each", Args: cobra.NoArgs}, list, skillbook.WriteList)
}

// newSkillShowCmd prints a skill's document, as saved, after what it does
// with a row in words.
func newSkillShowCmd(g *globals) *cobra.Command {
	var revision uint64
	var pending bool
	cmd := &cobra.Command{
		Use:   "show SKILL",
		Short: "Print a skill's YAML (--pending: the revision a model's healing proposed)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if pending && revision != 0 {
				return errors.New("--pending and --revision together: the proposal is not a saved version yet")
			}
			return g.with(cmd, func(ctx context.Context, c *client.Client) error {
				if pending {
					p, err := c.Pending(ctx, api.SkillPendingRequest{SkillID: args[0], Op: api.SkillPendingGet})
					if err != nil {
						return err
					}
					fmt.Fprintf(cmd.OutOrStdout(), "# proposed from revision %d, not yet accepted: `reprise skill accept %s` saves it\n", p.Base, args[0])
					_, err = fmt.Fprint(cmd.OutOrStdout(), termtext.Block(p.YAML))
					return err
				}
				reply, err := c.Skill(ctx, args[0], revision)
				if err != nil {
					return err
				}
				return skillbook.WriteDocument(cmd.OutOrStdout(), reply.YAML)
			})
		},
	}
	cmd.Flags().Uint64Var(&revision, "revision", 0, "a saved version (default: the newest)")
	cmd.Flags().BoolVar(&pending, "pending", false, "the revision a model's healing proposed, not yet accepted")
	return cmd
}

func newSkillAcceptCmd(g *globals) *cobra.Command {
	var discard bool
	cmd := &cobra.Command{
		Use:   "accept SKILL",
		Short: "Save the revision a model's healing proposed as the skill's newest (--discard drops it)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			req := api.SkillPendingRequest{SkillID: args[0], Op: api.SkillPendingAccept}
			if discard {
				req.Op = api.SkillPendingDiscard
			}
			pending := func(ctx context.Context, c *client.Client) (api.SkillPendingReply, error) { return c.Pending(ctx, req) }
			return call(g, cmd, "", pending, func(out io.Writer, reply api.SkillPendingReply) error {
				if discard {
					fmt.Fprintf(out, "dropped the proposed revision of skill %s\n", args[0])
				} else {
					fmt.Fprintf(out, "saved as revision %d of skill %s\n", reply.Revision, args[0])
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&discard, "discard", false, "drop the proposal instead")
	return cmd
}

func newSkillValidateCmd() *cobra.Command {
	var rows string
	cmd := &cobra.Command{
		Use:   "validate FILE",
		Short: "Check a skill file; with --rows, that the CSV has every column it needs",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, _, err := skills.ReadFile(args[0])
			if err != nil {
				return err
			}
			if rows != "" {
				header, _, err := readSample(rows)
				if err != nil {
					return err
				}
				if err := s.CheckHeader(header); err != nil {
					return fmt.Errorf("%s: %w", rows, err)
				}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: ok: %q, %d parameter(s), %d step(s)\n", args[0], s.Name, len(s.Parameters), len(s.Steps))
			return nil
		},
	}
	cmd.Flags().StringVar(&rows, "rows", "", "a CSV the skill will run on")
	return cmd
}

// buildFlags are what `skill build` and `skill import` build with: the
// skill's name, a sample of its CSV, and the answers to its questions.
type buildFlags struct {
	name, rows, confirmFile string
	confirm                 []string
}

func (f *buildFlags) add(fl *pflag.FlagSet, name string) {
	fl.StringVar(&f.name, "name", "", name)
	fl.StringVar(&f.rows, "rows", "", "a sample of the CSV the skill will run on: its header and first rows")
	fl.StringArrayVar(&f.confirm, "confirm", nil, "an answer, NAME=COLUMN or NAME=const (repeatable)")
	fl.StringVar(&f.confirmFile, "confirm-file", "", "a file of answers, one NAME=COLUMN or NAME=const a line (- reads stdin)")
}

// request gathers what a build of recs is asked with: the answers given,
// and the sample CSV's header and rows.
func (f *buildFlags) request(stdin io.Reader, recs []string) (api.SkillBuildRequest, error) {
	req := api.SkillBuildRequest{Name: f.name, Recordings: recs}
	text := strings.Join(f.confirm, "\n")
	if f.confirmFile != "" {
		b, err := readNamed(stdin, f.confirmFile, 1<<20)
		if err != nil {
			return req, fmt.Errorf("--confirm-file: %w", err)
		}
		text += "\n" + string(b)
	}
	var err error
	if req.Confirm, err = learn.ParseConfirm(text); err != nil {
		return req, fmt.Errorf("--confirm: %w", err)
	}
	if f.rows != "" {
		req.Header, req.SampleRows, err = readSample(f.rows)
	}
	return req, err
}
