package learn

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"github.com/reprise-dev/reprise/skills"
)

// The person's answers to a draft's questions are Confirm entries, one a
// line, written key=answer:
//
//	first_name=First Name       # first_name is read from the column "First Name"
//	company=const               # company is the demonstrated constant for every row
//	status=column:const         # the column literally named "const"
//	plan/gold=Enterprise        # the cell "gold" of plan's column means the option Enterprise
//	newsletter/oui=true         # the cell "oui" means checked
//	notes/optional=yes          # an empty cell leaves Notes empty (no: refuse such rows)
//	column:internal_note=ignore # no step uses that CSV column
//	column:Middle=Middle name   # that column fills the field labelled "Middle name"
//	field:Fax=ignore            # the untouched field "Fax" stays as the page has it
//	field:Fax=fax_number        # the column fax_number fills it
//	success:9=text:Customer created; url_unchanged   # what shows step 9 worked
const (
	// ConstAnswer confirms that a field is the same for every row.
	ConstAnswer = "const"
	// ColumnPrefix forces the rest of an answer to be read as a column
	// name, for a CSV whose column is literally named "const".
	ColumnPrefix = "column:"
	// IgnoreAnswer says a column or a field is deliberately left alone.
	IgnoreAnswer = "ignore"
	// OptionalKey is the qualifier of an answer about empty cells.
	OptionalKey = "optional"
	// WrittenKey is the qualifier of an answer about how a date column
	// writes its dates (tags/written=DD/MM/YYYY, or iso).
	WrittenKey = "written"
	// SeparatorKey is the qualifier of an answer about what splits a list
	// column's cells (tags/separator=|).
	SeparatorKey = "separator"
)

// Prefixes of answer keys that are about something other than a parameter.
const (
	columnKey  = "column:"
	fieldKey   = "field:"
	successKey = "success:"
)

// ParseConfirm reads Confirm entries, one key=answer a line. Blank lines
// and lines starting with # are skipped; spaces around key and answer are
// trimmed. A key given twice is an error.
func ParseConfirm(text string) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, answer, ok := strings.Cut(line, "=")
		key, answer = strings.TrimSpace(key), strings.TrimSpace(answer)
		switch {
		case !ok || answer == "":
			return nil, fmt.Errorf("line %d: want name=column or name=const", n)
		case !validKey(key):
			return nil, fmt.Errorf("line %d: %s is not a parameter name (snake_case), name/cell, column:NAME, field:LABEL or success:STEP", n, quoteShort(key))
		case out[key] != "":
			return nil, fmt.Errorf("line %d: %s is answered twice", n, quoteShort(key))
		}
		out[key] = answer
	}
	return out, sc.Err()
}

func validKey(key string) bool {
	for _, p := range []string{columnKey, fieldKey} {
		if rest, ok := strings.CutPrefix(key, p); ok {
			return strings.TrimSpace(rest) != ""
		}
	}
	if rest, ok := strings.CutPrefix(key, successKey); ok {
		n, err := strconv.Atoi(rest)
		return err == nil && n > 0
	}
	name, cell, qualified := strings.Cut(key, "/")
	return skills.ValidName(name) && (!qualified || strings.TrimSpace(cell) != "")
}

// answer is one Confirm entry about a parameter's column, read.
type answer struct {
	given  bool
	isCons bool
	column string
}

func readAnswer(confirm map[string]string, name string) answer {
	a, ok := confirm[name]
	if !ok {
		return answer{}
	}
	if a == ConstAnswer {
		return answer{given: true, isCons: true}
	}
	return answer{given: true, column: strings.TrimPrefix(a, ColumnPrefix)}
}

// cellAnswers are the name/cell entries for one parameter: cell mappings,
// and the answer about empty cells ("" when not given).
func cellAnswers(confirm map[string]string, name string) (mapping map[string]string, optional string) {
	for k, v := range confirm {
		n, cell, ok := strings.Cut(k, "/")
		if !ok || n != name {
			continue
		}
		if cell == OptionalKey {
			optional = strings.ToLower(v)
			continue
		}
		if cell == WrittenKey || cell == SeparatorKey {
			continue // read where the date or the list is settled
		}
		if mapping == nil {
			mapping = map[string]string{}
		}
		mapping[strings.TrimSpace(cell)] = v
	}
	return mapping, optional
}
