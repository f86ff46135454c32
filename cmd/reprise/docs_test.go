package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// repoRoot is the repository's root, from this package's folder.
var repoRoot = filepath.Join("..", "..")

// commandsDoc lists every command and flag of the CLI in a usage block.
const commandsDoc = "docs/commands.md"

// docFiles reads README.md and docs/*.md, keyed by their path from the root.
func docFiles(t *testing.T) map[string]markdown {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	paths = append(paths, filepath.Join(repoRoot, "README.md"))
	docs := map[string]markdown{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(repoRoot, p)
		docs[filepath.ToSlash(rel)] = parseMarkdown(string(b))
	}
	if _, ok := docs[commandsDoc]; !ok {
		t.Fatalf("%s is missing: it lists every command and flag", commandsDoc)
	}
	return docs
}

// TestDocsCommands: every reprise command in a shell block of the docs
// names a real command with only the flags that command has, and as many
// arguments as it takes; so does every line of a usage block and every
// `reprise ...` in the prose.
func TestDocsCommands(t *testing.T) {
	docs := docFiles(t)
	for _, path := range slices.Sorted(maps.Keys(docs)) {
		for _, problem := range checkDocCommands(path, docs[path]) {
			t.Error(problem)
		}
	}
}

// checkDocCommands returns one message per bad command of the doc at path,
// naming the file, the line, the command and what is wrong.
func checkDocCommands(path string, md markdown) []string {
	var problems []string
	bad := func(line int, text string, err error) {
		problems = append(problems, fmt.Sprintf("%s:%d: %s: %v", path, line, text, err))
	}
	for _, f := range md.fences {
		switch f.info {
		case "sh", "bash", "shell", "console", "zsh":
			cmds, err := shellCommands(f)
			if err != nil {
				bad(f.line, "shell block", err)
			}
			for _, c := range cmds {
				if err := checkShellCommand(c.words); err != nil {
					bad(c.line, c.text, err)
				}
			}
		case "usage":
			for _, c := range usageCommands(f) {
				if _, err := checkUsage(c.words); err != nil {
					bad(c.line, c.text, err)
				}
			}
		case "", "text":
			for i, l := range f.lines {
				if w := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "$ ")); len(w) > 0 && isReprise(w[0]) {
					bad(f.line+i, strings.TrimSpace(l), fmt.Errorf("a block of reprise commands is tagged sh (commands to run) or usage (a synopsis), so that TestDocs checks them"))
					break
				}
			}
		}
	}
	for _, c := range md.inlineCommands() {
		if _, err := checkUsage(c.words); err != nil {
			bad(c.line, c.text, err)
		}
	}
	return problems
}

// TestDocsListEveryCommandAndFlag: the commands doc's usage block names
// every command of the CLI and every flag of each, so a new command or
// flag is documented where a person looks for it.
func TestDocsListEveryCommandAndFlag(t *testing.T) {
	named := map[string]map[string]bool{}
	for _, f := range docFiles(t)[commandsDoc].fences {
		if f.info != "usage" {
			continue
		}
		for _, c := range usageCommands(f) {
			flags, err := checkUsage(c.words)
			if err != nil {
				continue // TestDocsCommands says so
			}
			for path, names := range flags {
				if named[path] == nil {
					named[path] = map[string]bool{}
				}
				for _, n := range names {
					named[path][n] = true
				}
			}
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if !sub.Hidden && sub.Name() != "help" && sub.Name() != "completion" {
				walk(sub)
			}
		}
		if !c.Runnable() {
			return
		}
		flags, ok := named[c.CommandPath()]
		if !ok {
			t.Errorf("%s does not list `%s`: add a line for it to its usage block", commandsDoc, c.CommandPath())
			return
		}
		c.NonInheritedFlags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && f.Name != "help" && !flags[f.Name] {
				t.Errorf("%s does not name --%s of `%s`: add it to that command's usage line", commandsDoc, f.Name, c.CommandPath())
			}
		})
	}
	walk(newRoot())
}

// TestDocsLinks: every relative link of the docs reaches a file that
// exists, and a link to a heading reaches a heading of that file.
func TestDocsLinks(t *testing.T) {
	docs := docFiles(t)
	for _, path := range slices.Sorted(maps.Keys(docs)) {
		for _, problem := range checkLinks(path, docs[path], docs) {
			t.Error(problem)
		}
	}
}

var scheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)

// checkLinks returns one message per link of the doc at path that leads
// nowhere. A link may leave the repository only for the shared design
// folder beside it, and is followed only where that folder is present.
func checkLinks(path string, md markdown, docs map[string]markdown) []string {
	var problems []string
	for _, l := range md.links() {
		if scheme.MatchString(l.target) {
			continue
		}
		file, frag, _ := strings.Cut(l.target, "#")
		if file == "" {
			if !md.headingSlugs()[frag] {
				problems = append(problems, fmt.Sprintf("%s:%d: link %s: %s has no heading whose anchor is #%s", path, l.line, l.target, path, frag))
			}
			continue
		}
		dest := filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(path), file)))
		if strings.HasPrefix(dest, "../") {
			if !strings.HasPrefix(dest, "../shared/") {
				problems = append(problems, fmt.Sprintf("%s:%d: link %s leaves the repository for %s; only ../shared/, the design beside it, may be linked", path, l.line, l.target, dest))
				continue
			}
			if _, err := os.Stat(filepath.Join(repoRoot, "..", "shared")); err != nil {
				continue
			}
		}
		if _, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(dest))); err != nil {
			problems = append(problems, fmt.Sprintf("%s:%d: link %s: %s does not exist", path, l.line, l.target, dest))
			continue
		}
		if frag == "" || !strings.HasSuffix(dest, ".md") {
			continue
		}
		target, ok := docs[dest]
		if !ok {
			b, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(dest)))
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s:%d: link %s: %v", path, l.line, l.target, err))
				continue
			}
			target = parseMarkdown(string(b))
		}
		if !target.headingSlugs()[frag] {
			problems = append(problems, fmt.Sprintf("%s:%d: link %s: %s has no heading whose anchor is #%s", path, l.line, l.target, dest, frag))
		}
	}
	return problems
}

var (
	docRef    = regexp.MustCompile(`\bdocs/([a-z0-9-]+\.md)(?:,\s*"([^"\n]+)")?`)
	readmeRef = regexp.MustCompile(`\bREADME(?:\.md)?(?:'s)?(?:,\s*|\s+)"([^"\n]+)"`)
)

// TestDocsNamedInCode: a comment, message or script that sends a reader
// to docs/NAME.md (or to one of its headings: docs/NAME.md, "Heading"), or
// to a heading of the README, sends them somewhere that exists.
func TestDocsNamedInCode(t *testing.T) {
	docs := docFiles(t)
	hasHeading := func(doc, heading string) bool {
		heading = strings.ReplaceAll(heading, "`", "")
		for _, h := range docs[doc].headings() {
			if h == heading || strings.HasPrefix(h, heading+":") {
				return true
			}
		}
		return false
	}
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != repoRoot && (strings.HasPrefix(name, ".") && name != ".ci" || name == "node_modules" || name == "bin" || name == "dist") {
				return filepath.SkipDir
			}
			return nil
		}
		if info, err := d.Info(); err != nil || !info.Mode().IsRegular() || info.Size() > 1<<20 {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil || bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, p)
		at := func(i int) string {
			return fmt.Sprintf("%s:%d", filepath.ToSlash(rel), 1+bytes.Count(b[:i], []byte("\n")))
		}
		for _, m := range docRef.FindAllSubmatchIndex(b, -1) {
			doc := "docs/" + string(b[m[2]:m[3]])
			switch {
			case docs[doc].prose == nil:
				t.Errorf("%s: names %s, which does not exist", at(m[0]), doc)
			case m[4] >= 0 && !hasHeading(doc, string(b[m[4]:m[5]])):
				t.Errorf("%s: names %s, %q, which has no such heading", at(m[0]), doc, b[m[4]:m[5]])
			}
		}
		for _, m := range readmeRef.FindAllSubmatchIndex(b, -1) {
			if !hasHeading("README.md", string(b[m[2]:m[3]])) {
				t.Errorf("%s: names the README's %q, which has no such heading: the README's sections moved to docs/", at(m[0]), b[m[2]:m[3]])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
