package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/replay/heal"
	"github.com/reprise-dev/reprise/skillbook"
)

func newCacheCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cache",
		Short: "Show or clear a skill's replay cache: what a model chose on this host (ai: on_miss)",
	}
	cmd.AddCommand(newCacheShowCmd(g), newCacheClearCmd(g))
	return cmd
}

// skillCache is a cache command's SKILL (its id or name): its id, the
// data dir, and its cache opened unless only its id and home are wanted.
func skillCache(g *globals, skill string, open bool) (c *heal.Cache, id, home string, err error) {
	if home, err = g.resolveHome(); err != nil {
		return nil, "", "", err
	}
	if id, err = skillbook.ID(skill); err != nil || !open {
		return nil, id, home, err
	}
	c, err = daemon.OpenReplayCache(home, id, g.log)
	return c, id, home, err
}

func newCacheShowCmd(g *globals) *cobra.Command {
	var format formatFlag
	cmd := &cobra.Command{
		Use:   "show SKILL",
		Short: "Print a skill's replay cache in pinned form (--format json for programs)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, id, _, err := skillCache(g, args[0], true)
			if err != nil {
				return err
			}
			ps := heal.Pin(c)
			if format == "json" {
				return writeJSON(cmd.OutOrStdout(), heal.NewPinnedCache(id, ps))
			}
			heal.WritePinned(cmd.OutOrStdout(), id, ps)
			return nil
		},
	}
	cmd.Flags().Var(&format, "format", "text or json")
	return cmd
}

func newCacheClearCmd(g *globals) *cobra.Command {
	var step int
	cmd := &cobra.Command{
		Use:   "clear SKILL",
		Short: "Remove a skill's replay cache, or one step's (--step N): the model is asked again",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("step") && step < 1 {
				return errors.New("--step counts from 1, as the report does")
			}
			// All of it goes whatever state the file is in: it is not opened.
			c, id, home, err := skillCache(g, args[0], step != 0)
			if err != nil {
				return err
			}
			if step == 0 {
				if err := heal.RemoveCache(daemon.ReplayCacheDir(home), id); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "removed the replay cache of skill %s\n", id)
				return nil
			}
			n, err := c.Clear(step - 1)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "removed %d cached step(s) of skill %s\n", n, id)
			return nil
		},
	}
	cmd.Flags().IntVar(&step, "step", 0, "only this step's (from 1)")
	return cmd
}
