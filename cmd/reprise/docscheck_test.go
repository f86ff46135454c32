package main

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestDocsShellCommands: the reprise commands a shell block holds, read as
// sh reads them.
func TestDocsShellCommands(t *testing.T) {
	for _, c := range []struct {
		block string
		want  []string // "line: words"
	}{
		{"reprise status", []string{"1: status"}},
		{"./bin/reprise record stop   # stopped rec_...: 9 steps", []string{"1: record stop"}},
		{"# reprise replay x --rows y\nreprise doctor", []string{"2: doctor"}},
		{"reprise replay new-customer \\\n    --rows customers.csv \\\n    --yes\nreprise status",
			[]string{"1: replay new-customer --rows customers.csv --yes", "4: status"}},
		{"reprise recordings fetch REC --format json | jq .steps > out.json", []string{"1: recordings fetch REC --format json"}},
		{"reprise skill build <rec_id> <rec_id2> --name 'New customer'", []string{"1: skill build <rec_id> <rec_id2> --name New customer"}},
		{"REPRISE_HUB_CREDENTIALS=u:p reprise worker --hub nats://h:4222 &", []string{"1: worker --hub nats://h:4222"}},
		{"$ reprise status --format json\n{\"pid\": 1}\n$ reprise doctor", []string{"1: status --format json", "3: doctor"}},
		{"cat > fill.js <<'JS'\nreprise stop\nJS\nreprise computer run fill.js", []string{"4: computer run fill.js"}},
		{"reprise computer run --read-only - <<< 'desktop.windows()'", []string{"1: computer run --read-only -"}},
		{"umask 077; echo 'reprise:PASSWORD' > creds && reprise status 2>&1", []string{"1: status"}},
		{"reprise.exe doctor\nexport PATH=$PWD/bin:$PATH\ngo build -o bin/reprise ./cmd/reprise", []string{"1: doctor"}},
		{`reprise skill build R --confirm "notes=\"a b\""`, []string{`1: skill build R --confirm notes="a b"`}},
	} {
		cmds, err := shellCommands(fence{info: "sh", line: 1, lines: strings.Split(c.block, "\n")})
		if err != nil {
			t.Errorf("shellCommands(%q): %v", c.block, err)
			continue
		}
		var got []string
		for _, cmd := range cmds {
			got = append(got, strings.TrimSpace(strings.Join(append([]string{strconv.Itoa(cmd.line) + ":"}, cmd.words...), " ")))
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("shellCommands(%q) = %q; want %q", c.block, got, c.want)
		}
	}
}

// TestDocsCatchBadCommands: a doc with a wrong command, flag, argument
// count or link fails, naming the file, the line and what is wrong; a
// right one passes.
func TestDocsCatchBadCommands(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want string // "" for no problem
	}{
		{"```sh\nreprise replay s --rows r.csv --parallel 4 --report out.json\n```", ""},
		{"```sh\nreprise replay s --rows r.csv --bogus\n```", "x.md:2: reprise replay s --rows r.csv --bogus: `reprise replay` has no flag --bogus (its flags: --accept-healed,"},
		{"text\n\n```sh\nreprise skill frobnicate s\n```", "x.md:4: reprise skill frobnicate s: `reprise skill` has no command \"frobnicate\""},
		{"```sh\nreprise computer revoke\n```", "x.md:2: reprise computer revoke: `reprise computer revoke`: accepts 1 arg(s), received 0"},
		{"```sh\nreprise consent forget --all\nreprise audit tail -n 5 -f\n```", ""},
		{"```sh\nreprise --home /tmp/r --log-level=debug status --format json\nreprise consent forget\n```", "x.md:3: reprise consent forget: `reprise consent forget`: give one KIND"},
		{"```sh\nreprise audit tail -x\n```", "`reprise audit tail` has no flag -x"},
		{"```sh\nreprise record start --channels\n```", "--channels of `reprise record start` needs a value"},
		{"```usage\nreprise doctor [--format text|json] [--request]\nreprise cache show SKILL [--format text|json] [--step N]\n```", "x.md:3: reprise cache show SKILL [--format text|json] [--step N]: `reprise cache show` has no flag --step"},
		{"```usage\nreprise elements [--browser [--profile NAME|DIR]\n                 | --window TITLE] [--limt N]\n```", "x.md:2: reprise elements [--browser [--profile NAME|DIR] | --window TITLE] [--limt N]: `reprise elements` has no flag --limt"},
		{"The queue that `reprise consent list|approve|deny` answers, and\n`reprise skill\nshow SKILL --pnding` prints it.", "x.md:2: reprise skill show SKILL --pnding: `reprise skill show` has no flag --pnding"},
		{"`reprise consent approve ID`, `reprise COMMAND --help`", ""},
		{"```\nreprise status\n```", "x.md:2: reprise status: a block of reprise commands is tagged sh"},
	} {
		problems := checkDocCommands("x.md", parseMarkdown(c.doc))
		switch {
		case c.want == "" && len(problems) > 0:
			t.Errorf("checkDocCommands(%q) = %q; want none", c.doc, problems)
		case c.want != "" && (len(problems) != 1 || !strings.Contains(problems[0], c.want)):
			t.Errorf("checkDocCommands(%q) = %q; want one saying %q", c.doc, problems, c.want)
		}
	}
	docs := map[string]markdown{"README.md": parseMarkdown("# reprise\n\n## Quickstart\n")}
	for _, c := range []struct {
		doc  string
		want string
	}{
		{"[readme](../README.md#quickstart) [go](https://go.dev) [x](#over-here)\n\n## Over here", ""},
		{"see [replay](replay-gone.md)", "guide/x.md:1: link replay-gone.md: guide/replay-gone.md does not exist"},
		{"\nsee [start](../README.md#quick-start)", "guide/x.md:2: link ../README.md#quick-start: README.md has no heading whose anchor is #quick-start"},
		{"[up](../../elsewhere/f.md)", "leaves the repository"},
	} {
		problems := checkLinks("guide/x.md", parseMarkdown(c.doc), docs)
		switch {
		case c.want == "" && len(problems) > 0:
			t.Errorf("checkLinks(%q) = %q; want none", c.doc, problems)
		case c.want != "" && (len(problems) != 1 || !strings.Contains(problems[0], c.want)):
			t.Errorf("checkLinks(%q) = %q; want one saying %q", c.doc, problems, c.want)
		}
	}
}
