package main

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// This file reads the Markdown docs the way TestDocs needs: fenced blocks,
// headings, links, and the reprise commands in shell blocks, in the
// commands doc's usage block and in inline code. docs_test.go holds what
// is checked against the CLI.

// fence is one fenced code block of a Markdown file.
type fence struct {
	info  string   // the info string's first word ("sh", "yaml", "")
	line  int      // the line of its first content line, from 1
	lines []string // its content
}

// markdown is a doc split into its fenced blocks and the rest.
type markdown struct {
	fences []fence
	prose  []string // every line, with fenced lines blanked
}

func parseMarkdown(text string) markdown {
	lines := strings.Split(text, "\n")
	md := markdown{prose: make([]string, len(lines))}
	var open *fence
	var marker string
	for i, l := range lines {
		trimmed := strings.TrimLeft(l, " ")
		if open == nil {
			if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
				marker = trimmed[:3]
				info := strings.Fields(strings.Trim(trimmed, "`~"))
				open = &fence{line: i + 2}
				if len(info) > 0 {
					open.info = strings.ToLower(info[0])
				}
				continue
			}
			md.prose[i] = l
			continue
		}
		if strings.HasPrefix(trimmed, marker) && strings.Trim(trimmed, marker[:1]) == "" {
			md.fences = append(md.fences, *open)
			open = nil
			continue
		}
		open.lines = append(open.lines, l)
	}
	if open != nil {
		md.fences = append(md.fences, *open)
	}
	return md
}

// headingSlugs are the anchors GitHub gives a file's headings.
func (md markdown) headingSlugs() map[string]bool {
	slugs := map[string]bool{}
	seen := map[string]int{}
	for _, h := range md.headings() {
		s := slug(h)
		if n := seen[s]; n > 0 {
			slugs[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			slugs[s] = true
		}
		seen[s]++
	}
	return slugs
}

// headings are the text of every ATX heading, backticks removed.
func (md markdown) headings() []string {
	var hs []string
	for _, l := range md.prose {
		t := strings.TrimLeft(l, "#")
		if len(t) < len(l) && len(l)-len(t) <= 6 && strings.HasPrefix(t, " ") {
			hs = append(hs, strings.TrimSpace(strings.ReplaceAll(t, "`", "")))
		}
	}
	return hs
}

// slug is GitHub's anchor for a heading: lower case, punctuation dropped,
// spaces made hyphens.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// link is a Markdown link's target and the line it is on.
type link struct {
	target string
	line   int
}

var (
	codeSpan   = regexp.MustCompile("`[^`]*`")
	linkTarget = regexp.MustCompile(`\]\(([^()\s]+)(?:\s+"[^"]*")?\)`)
)

// links are the targets of every inline link and image outside code.
func (md markdown) links() []link {
	var ls []link
	for i, l := range md.prose {
		for _, m := range linkTarget.FindAllStringSubmatch(codeSpan.ReplaceAllString(l, "``"), -1) {
			ls = append(ls, link{m[1], i + 1})
		}
	}
	return ls
}

// docCommand is one reprise command line found in a doc.
type docCommand struct {
	line  int
	words []string // after the program's name
	text  string   // as written, for messages
}

var inlineCommand = regexp.MustCompile("`(reprise(?:\\.exe)?(?:\\s[^`]*)?)`")

// inlineCommands are the code spans of the prose that start with reprise;
// a span may run over a line break, as Markdown allows.
func (md markdown) inlineCommands() []docCommand {
	var cmds []docCommand
	for start := 0; start < len(md.prose); {
		end := start
		for end < len(md.prose) && strings.TrimSpace(md.prose[end]) != "" {
			end++
		}
		para := strings.Join(md.prose[start:end], "\n")
		for _, m := range inlineCommand.FindAllStringSubmatchIndex(para, -1) {
			text := strings.Join(strings.Fields(para[m[2]:m[3]]), " ")
			line := start + 1 + strings.Count(para[:m[0]], "\n")
			cmds = append(cmds, docCommand{line: line, words: strings.Fields(text)[1:], text: text})
		}
		start = end + 1
	}
	return cmds
}

// usageCommands are the entries of a usage block: a line that starts with
// reprise, and the indented lines after it.
func usageCommands(f fence) []docCommand {
	var cmds []docCommand
	for i, l := range f.lines {
		switch {
		case strings.HasPrefix(l, "reprise ") || l == "reprise":
			cmds = append(cmds, docCommand{line: f.line + i, text: l})
		case len(cmds) > 0 && strings.TrimSpace(l) != "" && (l[0] == ' ' || l[0] == '\t'):
			cmds[len(cmds)-1].text += " " + strings.TrimSpace(l)
		}
	}
	for i := range cmds {
		cmds[i].words = strings.Fields(cmds[i].text)[1:]
	}
	return cmds
}

// shellCommands are the reprise commands of a shell block. It reads the
// block as sh does: quotes, backslash escapes and line continuations,
// comments, pipes and lists, redirections and here-documents, and
// variable assignments before a command. A console block (one with "$ "
// prompts) has its commands on the prompt lines only. <id> and the like
// are placeholders, not redirections.
func shellCommands(f fence) ([]docCommand, error) {
	lines := f.lines
	if isConsole(lines) {
		lines = promptLines(lines)
	}
	toks, err := lexShell(strings.Join(lines, "\n"), f.line)
	if err != nil {
		return nil, err
	}
	var cmds []docCommand
	var cur *docCommand
	atStart, redirect := true, false
	for _, tk := range toks {
		switch {
		case tk.op != "" && isRedirect(tk.op):
			redirect = true
			continue
		case tk.op != "":
			if cur != nil {
				cmds = append(cmds, *cur)
				cur = nil
			}
			atStart = true
			continue
		case redirect:
			redirect = false
			continue
		}
		switch {
		case cur != nil:
			cur.words = append(cur.words, tk.word)
			cur.text += " " + tk.word
		case !atStart:
		case assignment.MatchString(tk.word) || tk.word == "sudo" || tk.word == "time" || tk.word == "exec" || tk.word == "nohup":
		case isReprise(tk.word):
			cur = &docCommand{line: tk.line, text: "reprise"}
			atStart = false
		default:
			atStart = false
		}
	}
	if cur != nil {
		cmds = append(cmds, *cur)
	}
	return cmds, nil
}

var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// reprogram is how a doc runs the CLI: reprise, ./reprise, or a bin/reprise
// (./bin/reprise, ~/go/bin/reprise), with .exe on Windows; cmd/reprise is
// its source folder, not a command.
var reprogram = regexp.MustCompile(`^(?:(?:\./)?|\S*/bin/|bin/)reprise(?:\.exe)?$`)

func isReprise(word string) bool { return reprogram.MatchString(word) }

func isRedirect(op string) bool { return strings.ContainsAny(op, "<>") }

func isConsole(lines []string) bool {
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "$ ") {
			return true
		}
	}
	return false
}

// promptLines keeps a console block's commands: the prompt lines, without
// their "$ ", and the lines they continue onto; output lines are blanked
// so that line numbers hold.
func promptLines(lines []string) []string {
	out := make([]string, len(lines))
	continued := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "$ "):
			out[i] = t[2:]
		case continued:
			out[i] = l
		default:
			continue
		}
		continued = strings.HasSuffix(out[i], "\\")
	}
	return out
}

// shellToken is a word or an operator (";" for a line's end).
type shellToken struct {
	word, op string
	line     int
}

var placeholder = regexp.MustCompile(`^<[A-Za-z][A-Za-z0-9_.-]*>`)

// lexShell splits a shell text into words and operators, dropping
// comments and here-document bodies. first is the text's first line.
func lexShell(s string, first int) ([]shellToken, error) {
	var toks []shellToken
	var word strings.Builder
	inWord, line := false, first
	var heredocs []string // delimiters whose bodies start at the next line
	wantDelim := false
	emit := func() {
		if !inWord {
			return
		}
		w := word.String()
		word.Reset()
		inWord = false
		if wantDelim {
			heredocs = append(heredocs, w)
			wantDelim = false
		}
		toks = append(toks, shellToken{word: w, line: line})
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] == '\n' {
				line++
			} else {
				word.WriteByte(s[i])
				inWord = true
			}
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("line %d: a ' that never closes", line)
			}
			word.WriteString(s[i+1 : i+1+end])
			line += strings.Count(s[i+1:i+1+end], "\n")
			i += end + 1
			inWord = true
		case c == '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) {
					j++
				}
				if s[j] == '\n' {
					line++
				}
				word.WriteByte(s[j])
			}
			if j == len(s) {
				return nil, fmt.Errorf("line %d: a \" that never closes", line)
			}
			i = j
			inWord = true
		case c == '#' && !inWord:
			for i+1 < len(s) && s[i+1] != '\n' {
				i++
			}
		case c == '<' && placeholder.MatchString(s[i:]):
			m := placeholder.FindString(s[i:])
			word.WriteString(m)
			i += len(m) - 1
			inWord = true
		case c == ' ' || c == '\t':
			emit()
		case c == '\n':
			emit()
			toks = append(toks, shellToken{op: ";", line: line})
			line++
			for _, d := range heredocs {
				for {
					next := strings.IndexByte(s[i+1:], '\n')
					body := s[i+1:]
					if next >= 0 {
						body = body[:next]
					}
					i += len(body) + 1
					line++
					if strings.TrimLeft(body, "\t") == d || i >= len(s) {
						break
					}
				}
			}
			heredocs = nil
		case strings.IndexByte("|&;<>", c) >= 0:
			if w := word.String(); inWord && strings.Trim(w, "0123456789") == "" && (c == '<' || c == '>') {
				word.Reset() // a file descriptor: 2>
				inWord = false
			}
			emit()
			j := i + 1
			for j < len(s) && strings.IndexByte("|&;<>-", s[j]) >= 0 && !(s[j] == '-' && !strings.HasPrefix(s[i:j], "<<")) {
				j++
			}
			op := s[i:j]
			if strings.HasSuffix(op, ">&") || strings.HasSuffix(op, "<&") {
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
			}
			toks = append(toks, shellToken{op: op, line: line})
			wantDelim = op == "<<" || op == "<<-"
			i = j - 1
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	emit()
	return toks, nil
}
