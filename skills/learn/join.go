package learn

import (
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
	"github.com/reprise-dev/reprise/skills/cells"
)

// Joining a parameter to a CSV column: by the demonstrated values found in
// the sample rows when there are any (the strongest evidence), else by label
// similarity. A join is accepted only when one column is clearly best.
const (
	// joinThreshold is the least similarity a label and a header need to
	// be joined without the person: "Phone" joins "Phone number" (0.8) but
	// not "Given name" to "first_name" (0.56).
	joinThreshold = 0.75
	// tieMargin is how close two headers' scores must be to call a tie.
	tieMargin = 0.05
)

// Key normalizes a label or a header for comparison and names parameters
// after it: "First Name:", "first_name", "FIRST NAME", "first-name" and
// "firstName" are all first_name. Letters outside ASCII are kept in the key
// but ValidName refuses them; nameFor handles that.
func Key(s string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range s {
		switch {
		case unicode.IsUpper(r):
			if prevLower {
				b.WriteByte(' ')
			}
			b.WriteRune(unicode.ToLower(r))
			prevLower = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
			prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
		default:
			b.WriteByte(' ')
			prevLower = false
		}
	}
	return strings.Join(strings.Fields(b.String()), "_")
}

// Similarity scores how alike two labels are, from 0 to 1, on their keys:
// the best of token overlap (Dice), token containment ("Phone" in "Phone
// number") and the Levenshtein ratio of the keys without separators.
func Similarity(a, b string) float64 {
	ka, kb := Key(a), Key(b)
	if ka == "" || kb == "" {
		return 0
	}
	ca, cb := strings.ReplaceAll(ka, "_", ""), strings.ReplaceAll(kb, "_", "")
	if ca == cb {
		return 1
	}
	ta, tb := strings.Split(ka, "_"), strings.Split(kb, "_")
	common := 0
	inB := map[string]bool{}
	for _, t := range tb {
		inB[t] = true
	}
	for _, t := range dedup(ta) {
		if inB[t] {
			common++
		}
	}
	ua, ub := len(dedup(ta)), len(dedup(tb))
	best := 2 * float64(common) / float64(ua+ub)
	if common > 0 && (common == ua || common == ub) && best < 0.8 {
		best = 0.8
	}
	if r := levRatio(ca, cb); r > best {
		best = r
	}
	return best
}

func dedup(xs []string) []string {
	seen := map[string]bool{}
	out := xs[:0:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func levRatio(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	n := max(len(ra), len(rb))
	if n == 0 {
		return 1
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return 1 - float64(prev[len(rb)])/float64(n)
}

// joinResult is where a parameter's column search ended.
type joinResult struct {
	column     string   // set when one column clearly fits
	candidates []string // the tied columns when several fit equally
	how        string   // "sample values", "label", or "" when not joined
}

// join finds the column for a parameter from its label and the values the
// recordings gave it. Header and rows are the CSV's; rows may be empty.
func join(label string, values []string, header []string, rows [][]string) joinResult {
	if len(header) == 0 {
		return joinResult{}
	}
	cols := byValues(values, header, rows)
	how := "sample values"
	if len(cols) == 0 {
		cols, how = header, "label"
	}
	type scored struct {
		col   string
		score float64
	}
	var s []scored
	for _, c := range cols {
		s = append(s, scored{c, Similarity(label, c)})
	}
	sort.SliceStable(s, func(i, j int) bool { return s[i].score > s[j].score })
	if how == "label" && s[0].score < joinThreshold {
		return joinResult{}
	}
	var tied []string
	for _, x := range s {
		if s[0].score-x.score < tieMargin {
			tied = append(tied, x.col)
		}
	}
	if len(tied) > 1 {
		return joinResult{candidates: tied, how: how}
	}
	return joinResult{column: s[0].col, how: how}
}

// byValues returns the columns holding the most of the demonstrated values
// in the sample rows, compared trimmed and loosely (skills.Loose). Values too short to
// be evidence ("1", "x", a boolean) are ignored.
func byValues(values []string, header []string, rows [][]string) []string {
	want := map[string]bool{}
	for _, v := range values {
		v = strings.ToLower(strings.TrimSpace(v))
		if len([]rune(v)) >= 2 && !isBool(v) {
			want[v] = true
		}
	}
	if len(want) == 0 {
		return nil
	}
	hits := make([]int, len(header))
	for c := range header {
		found := map[string]bool{}
		for _, r := range rows {
			if c < len(r) {
				if v := strings.ToLower(strings.TrimSpace(r[c])); want[v] {
					found[v] = true
				}
			}
		}
		hits[c] = len(found)
	}
	best := 0
	for _, h := range hits {
		best = max(best, h)
	}
	var cols []string
	for c, h := range hits {
		if best > 0 && h == best {
			cols = append(cols, header[c])
		}
	}
	return cols
}

// demoRows finds, for each recording, the sample row it demonstrated: the
// one row holding the most of the recording's text values (two at least,
// or the only one there is). nil when a recording's row is not found
// that surely: a join through it would be a guess.
func (g *builder) demoRows() []int {
	if g.demo != nil || len(g.opts.SampleRows) == 0 {
		return g.demo
	}
	var texts []*candidate
	for _, c := range g.cands {
		if g.skill.Steps[c.step].Action == events.ActionFill && c.typ != skills.TypeBoolean && len(c.values) == g.n {
			texts = append(texts, c)
		}
	}
	rows := make([]int, g.n)
	for k := range g.n {
		// Only values some sample row holds count: a date typed in another
		// shape than the CSV writes it is no evidence either way.
		have := 0
		for _, c := range texts {
			if v := skills.Loose(c.values[k]); len(v) >= 2 && g.sampled(v) {
				have++
			}
		}
		need := min(2, have)
		if need == 0 {
			return nil
		}
		best, at, tied := 0, -1, false
		for i, row := range g.opts.SampleRows {
			score := 0
			for _, c := range texts {
				v := skills.Loose(c.values[k])
				if len(v) >= 2 && slices.ContainsFunc(row, func(cell string) bool { return skills.Loose(cell) == v }) {
					score++
				}
			}
			switch {
			case score > best:
				best, at, tied = score, i, false
			case score == best && score > 0:
				tied = true
			}
		}
		if best < need || tied {
			return nil
		}
		rows[k] = at
	}
	g.demo = rows
	return rows
}

// sampled reports whether a sample row holds the loose value v.
func (g *builder) sampled(v string) bool {
	return slices.ContainsFunc(g.opts.SampleRows, func(row []string) bool {
		return slices.ContainsFunc(row, func(cell string) bool { return skills.Loose(cell) == v })
	})
}

// joinByDemoRows finds the one column whose cells in the demonstrated rows
// mean what each recording did: a box's state, a choice's option, a value
// too short to be found by itself ("3" parcels). A yes/no column cannot be
// told from another by its words; by the rows it can.
func (g *builder) joinByDemoRows(c *candidate) string {
	if c.typ == skills.TypeList || c.typ == events.ValueFile {
		return "" // a list is split first (joinList); a file is named by its path
	}
	rows := g.demoRows()
	if rows == nil {
		return ""
	}
	p := skills.Parameter{Type: c.typ, Optional: true}
	var hit string
	for col, name := range g.opts.Header {
		fits, known := true, 0
		for k, r := range rows {
			if c.values[k] == "" && c.typ != skills.TypeBoolean {
				continue // left at the page's default: unknown
			}
			known++
			row := g.opts.SampleRows[r]
			if col >= len(row) {
				fits = false
				break
			}
			got, err := cells.Map(p, row[col], c.options)
			fits = fits && err == nil && skills.Loose(got) == skills.Loose(c.values[k])
		}
		if fits && known > 0 {
			if hit != "" {
				return "" // two columns fit alike: never a guess
			}
			hit = name
		}
	}
	return hit
}

// demonstrated returns the rows the recordings filed by hand (see
// Draft.Demonstrated): none when the skill files nothing.
func (g *builder) demonstrated() []Demonstration {
	filed := -1
	for i, st := range g.skill.Steps {
		if st.Destructive && i < len(g.cols) && g.cols[i] != nil {
			filed = i
		}
	}
	if filed < 0 {
		return nil
	}
	rows := g.demoRows()
	var out []Demonstration
	for k := range g.n {
		if g.cols[filed][k] == nil {
			continue // this recording did not submit
		}
		row := map[string]string{}
		for _, p := range g.skill.Parameters {
			if rows != nil {
				if col := slices.Index(g.opts.Header, p.Column); col >= 0 && col < len(g.opts.SampleRows[rows[k]]) {
					row[p.Name] = g.opts.SampleRows[rows[k]][col]
					continue
				}
			}
			for _, c := range g.cands {
				if c.name == p.Name && len(c.values) == g.n {
					row[p.Name] = c.values[k]
					break
				}
			}
		}
		out = append(out, Demonstration{RecordingID: g.recs[k].RecordingID, Cells: row})
	}
	return out
}
