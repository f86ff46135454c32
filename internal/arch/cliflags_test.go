package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// flagUse is a string literal of a library that names one of the CLI's
// flags.
type flagUse struct{ file, flag string }

// libraryFlagUses are the string literals outside cmd/ that name a flag of
// the CLI (issue 34), and each one's reason; nothing else may. A library
// says what happened in reprise's terms and returns a typed error, a hint
// or a code: cmd/reprise words it with its flags. What is here names
// another program's switch that happens to share a flag's name, or is a
// report only the CLI prints.
var libraryFlagUses = map[flagUse]string{
	{"doctor/permissions.go", "request"}:         "`reprise doctor`'s report for a person at the terminal: --request is the command that asks macOS, and the lines --request prints",
	{"doctor/probes.go", "browser-url"}:          "`reprise doctor`'s report for a person at the terminal: how replay finds a browser they run",
	{"internal/demo/main.go", "rows"}:            "make demo runs the CLI itself, with its flags",
	{"internal/demo/main.go", "name"}:            "make demo runs the CLI itself, with its flags",
	{"internal/demo/main.go", "report"}:          "make demo runs the CLI itself, with its flags",
	{"internal/demo/run.go", "yes"}:              "make demo runs the CLI itself, with its flags",
	{"internal/demo/run.go", "channels"}:         "make demo runs the CLI itself, with its flags",
	{"internal/demo/main.go", "consent-prompt"}:  "make demo runs the CLI itself, with its flags",
	{"internal/codegen/main.go", "format"}:       "go generate writes docs/errors.md, the CLI's documentation, which says what `reprise elements --format json` prints",
	{"internal/benchreport/main.go", "parallel"}: "make bench's report for developers compares `reprise replay --parallel 4` with 1",
	{"internal/wine/probe.go", "window"}:         "xdotool's own --window switch, in a test desktop",
	{"internal/xvfb/xvfb.go", "name"}:            "xdotool's own --name switch, in a test desktop",
}

// TestLibrariesNameNoCLIFlag fails when a string literal of a package
// outside cmd/ (tests aside) names one of the CLI's flags, and when an
// entry of libraryFlagUses is no longer needed.
func TestLibrariesNameNoCLIFlag(t *testing.T) {
	flags := cliFlags(t, "../../cmd/reprise")
	if len(flags) < 60 || !flags["format"] {
		t.Fatalf("found %d flags of the CLI; want them all (has the way cmd/reprise declares flags changed?)", len(flags))
	}
	used := map[flagUse]bool{}
	for _, u := range libraryFlagLiterals(t, "../..", flags) {
		if _, ok := libraryFlagUses[u]; ok {
			used[u] = true
			continue
		}
		t.Errorf("%s names the CLI's flag --%s: return a typed error, a hint or a code, and word it with the flag in cmd/reprise", u.file, u.flag)
	}
	for u := range libraryFlagUses {
		if !used[u] {
			t.Errorf("libraryFlagUses allows --%s in %s, which names it no more: remove the entry", u.flag, u.file)
		}
	}
}

// flagDefiners are pflag's methods that define a flag: the flag's name is
// their first argument, or their second for the ...Var forms and Var
// itself (a flag of the CLI's own pflag.Value, such as --format's).
var flagDefiners = regexp.MustCompile(`^((Bool|Count|Duration|Float64|Int|Int64|String|StringArray|StringSlice|Uint)(Var)?|Var)P?$`)

// cliFlags is the names of the flags dir's commands define on a flag set:
// a Flags() or PersistentFlags() call, a variable set from one, or a
// function's *pflag.FlagSet parameter.
func cliFlags(t *testing.T, dir string) map[string]bool {
	t.Helper()
	flags := map[string]bool{}
	for _, f := range parseDir(t, dir) {
		sets := map[string]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl: // a helper that adds flags to the set it is given
				for _, p := range n.Type.Params.List {
					if star, ok := p.Type.(*ast.StarExpr); ok && types.ExprString(star.X) == "pflag.FlagSet" {
						for _, name := range p.Names {
							sets[name.Name] = true
						}
					}
				}
			case *ast.AssignStmt:
				for i, rhs := range n.Rhs {
					if id, ok := n.Lhs[i].(*ast.Ident); ok && i < len(n.Lhs) && isFlagSet(rhs, nil) {
						sets[id.Name] = true
					}
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || !flagDefiners.MatchString(sel.Sel.Name) || !isFlagSet(sel.X, sets) {
					return true
				}
				at := 0
				if strings.Contains(sel.Sel.Name, "Var") {
					at = 1
				}
				if at < len(n.Args) {
					if name, ok := stringLit(n.Args[at]); ok {
						flags[name] = true
					}
				}
			}
			return true
		})
	}
	return flags
}

// isFlagSet says whether x is a flag set: X.Flags(), X.PersistentFlags()
// or a variable of sets.
func isFlagSet(x ast.Expr, sets map[string]bool) bool {
	switch x := x.(type) {
	case *ast.Ident:
		return sets[x.Name]
	case *ast.CallExpr:
		sel, ok := x.Fun.(*ast.SelectorExpr)
		return ok && (sel.Sel.Name == "Flags" || sel.Sel.Name == "PersistentFlags")
	}
	return false
}

// flagWord is a --flag in a string, not inside a longer word or switch.
var flagWord = regexp.MustCompile(`(?:^|[^A-Za-z0-9_-])--([a-z][a-z0-9-]*)`)

// libraryFlagLiterals is every string literal of the module's Go code
// outside cmd/, tests, testdata and the shared tools that names one of
// flags, by file (relative to root) and flag.
func libraryFlagLiterals(t *testing.T, root string, flags map[string]bool) []flagUse {
	t.Helper()
	var out []flagUse
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "cmd" || rel == ".tools" || d.Name() == "testdata" || d.Name() == "node_modules" || (rel != "." && strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			s, ok := stringLit(n)
			if !ok {
				return true
			}
			for _, m := range flagWord.FindAllStringSubmatch(s, -1) {
				if flags[m[1]] && !seen[m[1]] {
					seen[m[1]] = true
					out = append(out, flagUse{rel, m[1]})
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(out, func(a, b flagUse) int { return strings.Compare(a.file+a.flag, b.file+b.flag) })
	return out
}

// parseDir parses dir's Go files, tests aside.
func parseDir(t *testing.T, dir string) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// stringLit is n's value when n is a string literal.
func stringLit(n ast.Node) (string, bool) {
	lit, ok := n.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}
