package main

import (
	"errors"
	"fmt"
	"log/slog"

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

// cacheOf is skill's (its id or name) data dir and id.
func cacheOf(g *globals, skill string) (home, id string, err error) {
	if home, err = g.resolveHome(); err != nil {
		return "", "", err
	}
	id, err = skillbook.ID(skill)
	return home, id, err
}

// openSkillCache opens skill's replay cache.
func openSkillCache(g *globals, skill string) (*heal.Cache, string, error) {
	home, id, err := cacheOf(g, skill)
	if err != nil {
		return nil, "", err
	}
	log, err := g.logger()
	if err != nil {
		return nil, "", err
	}
	c, err := openCache(home, id, log)
	return c, id, err
}

func newCacheShowCmd(g *globals) *cobra.Command {
	var format formatFlag
	cmd := &cobra.Command{
		Use:   "show SKILL",
		Short: "Print a skill's replay cache in pinned form (--format json for programs)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, id, err := openSkillCache(g, args[0])
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
			if step == 0 { // all of it, whatever state the file is in
				home, id, err := cacheOf(g, args[0])
				if err != nil {
					return err
				}
				if err := heal.RemoveCache(daemon.ReplayCacheDir(home), id); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "removed the replay cache of skill %s\n", id)
				return nil
			}
			c, id, err := openSkillCache(g, args[0])
			if err != nil {
				return err
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

// openCache opens skill id's replay cache in the data dir home, worded
// for a damaged one.
func openCache(home, id string, log *slog.Logger) (*heal.Cache, error) {
	c, err := daemon.OpenReplayCache(home, id, log)
	return c, explainCache(err)
}

// explainCache says how to clear a damaged replay cache.
func explainCache(err error) error {
	var damaged *heal.DamagedError
	if errors.As(err, &damaged) {
		return fmt.Errorf("the replay cache %s is damaged (%v): remove it with reprise cache clear %s", damaged.Path, damaged.Err, damaged.Skill)
	}
	return err
}
