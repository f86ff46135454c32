package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// This file checks a command line found in the docs against the CLI's
// command tree, as newRoot builds it.

// checkShellCommand checks the words after `reprise` as the CLI would
// take them: the command path, each flag (a value where it takes one),
// and the number of arguments.
func checkShellCommand(words []string) error {
	root := newRoot()
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	c := root
	var args []string
	inPath := true
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			args = append(args, words[i+1:]...)
			i = len(words)
		case strings.HasPrefix(w, "-") && w != "-":
			n, err := takeFlag(c, words[i:])
			if err != nil {
				return err
			}
			i += n
		case inPath && subcommand(c, w) != nil:
			c = subcommand(c, w)
		case inPath && isGroup(c):
			return unknownCommand(c, w)
		default:
			inPath = false
			args = append(args, w)
		}
	}
	if c.Runnable() {
		if err := c.ValidateArgs(args); err != nil {
			return fmt.Errorf("`%s`: %v", c.CommandPath(), err)
		}
	}
	return nil
}

// takeFlag checks the flag that words starts with on c, sets it as the CLI
// would (an argument check may depend on it), and returns how many words
// after it are its value.
func takeFlag(c *cobra.Command, words []string) (int, error) {
	w := words[0]
	value := func(f *pflag.Flag, attached string, hasAttached bool, shown string) (int, error) {
		n := 0
		switch {
		case hasAttached:
		case f.NoOptDefVal != "":
			attached = f.NoOptDefVal
		case len(words) > 1:
			attached, n = words[1], 1
		default:
			return 0, fmt.Errorf("%s of `%s` needs a value", shown, c.CommandPath())
		}
		_ = f.Value.Set(attached) // a placeholder (N, RUN) need not parse
		return n, nil
	}
	if name, ok := strings.CutPrefix(w, "--"); ok {
		name, attached, has := strings.Cut(name, "=")
		f := lookupFlag(c, name)
		if f == nil {
			return 0, fmt.Errorf("`%s` has no flag --%s (its flags: %s)", c.CommandPath(), name, flagList(c))
		}
		return value(f, attached, has, w)
	}
	for j := 1; j < len(w); j++ {
		f := lookupShort(c, w[j:j+1])
		if f == nil {
			return 0, fmt.Errorf("`%s` has no flag -%s (its flags: %s)", c.CommandPath(), w[j:j+1], flagList(c))
		}
		if f.NoOptDefVal == "" {
			rest := strings.TrimPrefix(w[j+1:], "=")
			return value(f, rest, rest != "", "-"+w[j:j+1])
		}
		_ = f.Value.Set(f.NoOptDefVal)
	}
	return 0, nil
}

// checkUsage checks a synopsis: `reprise skill show SKILL [--revision N |
// --pending]`, where brackets and braces group, a|b are alternatives (of a
// value, a flag or a command), and upper-case words are placeholders. It
// returns the flags it names, by the command path they belong to.
func checkUsage(words []string) (map[string][]string, error) {
	cs := []*cobra.Command{newRoot()}
	inPath := true
	named := map[string][]string{}
	for _, tok := range words {
		tok = strings.Map(func(r rune) rune {
			if strings.ContainsRune("[]{}()", r) {
				return -1
			}
			return r
		}, tok)
		if tok == "" || tok == "..." {
			continue
		}
		for _, alt := range strings.Split(tok, "|") {
			if !strings.HasPrefix(alt, "-") || alt == "-" {
				continue
			}
			name, _, _ := strings.Cut(strings.TrimLeft(alt, "-"), "=")
			found := false
			for _, c := range cs {
				f := lookupFlag(c, name)
				if !strings.HasPrefix(alt, "--") && len(name) == 1 {
					f = lookupShort(c, name)
				}
				if f != nil {
					found = true
					named[c.CommandPath()] = append(named[c.CommandPath()], f.Name)
				}
			}
			if !found {
				return nil, fmt.Errorf("`%s` has no flag %s (its flags: %s)", cs[0].CommandPath(), alt, flagList(cs[0]))
			}
		}
		if !inPath || strings.HasPrefix(tok, "-") {
			continue
		}
		var next []*cobra.Command
		for _, alt := range strings.Split(tok, "|") {
			for _, c := range cs {
				if sub := subcommand(c, alt); sub != nil {
					next = append(next, sub)
				} else if isGroup(c) && !commandPlaceholder.MatchString(alt) {
					return nil, unknownCommand(c, alt)
				}
			}
		}
		if len(next) > 0 {
			cs = next
		} else {
			inPath = false
		}
	}
	for _, c := range cs {
		if _, ok := named[c.CommandPath()]; !ok {
			named[c.CommandPath()] = nil
		}
	}
	return named, nil
}

// commandPlaceholder stands for any command in a synopsis: reprise COMMAND --help.
var commandPlaceholder = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

func subcommand(c *cobra.Command, name string) *cobra.Command {
	for _, sub := range c.Commands() {
		if sub.Name() == name || sub.HasAlias(name) {
			return sub
		}
	}
	return nil
}

// isGroup is a command that only holds others, and takes no arguments.
func isGroup(c *cobra.Command) bool { return !c.Runnable() && c.HasSubCommands() }

func unknownCommand(c *cobra.Command, name string) error {
	var subs []string
	for _, sub := range c.Commands() {
		if !sub.Hidden {
			subs = append(subs, sub.Name())
		}
	}
	return fmt.Errorf("`%s` has no command %q (its commands: %s)", c.CommandPath(), name, strings.Join(subs, ", "))
}

func lookupFlag(c *cobra.Command, name string) *pflag.Flag {
	c.InitDefaultHelpFlag()
	c.InitDefaultVersionFlag()
	if f := c.Flags().Lookup(name); f != nil {
		return f
	}
	return c.InheritedFlags().Lookup(name)
}

func lookupShort(c *cobra.Command, short string) *pflag.Flag {
	c.InitDefaultHelpFlag()
	c.InitDefaultVersionFlag()
	if f := c.Flags().ShorthandLookup(short); f != nil {
		return f
	}
	return c.InheritedFlags().ShorthandLookup(short)
}

// flagList names c's flags for a message, its own first.
func flagList(c *cobra.Command) string {
	var own, inherited []string
	c.NonInheritedFlags().VisitAll(func(f *pflag.Flag) { own = append(own, "--"+f.Name) })
	c.InheritedFlags().VisitAll(func(f *pflag.Flag) { inherited = append(inherited, "--"+f.Name) })
	slices.Sort(own)
	slices.Sort(inherited)
	return strings.Join(append(own, inherited...), ", ")
}
