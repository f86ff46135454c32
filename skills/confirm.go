package skills

import (
	"bufio"
	"fmt"
	"strings"
)

// The person's answers to a draft's questions are Confirm entries, one per
// parameter, written name=answer:
//
//	first_name=First Name     # first_name is read from the column "First Name"
//	company=const             # company is the demonstrated constant for every row
//	status=column:const       # the column literally named "const"
const (
	// ConstAnswer confirms that a field is the same for every row.
	ConstAnswer = "const"
	// ColumnPrefix forces the rest of an answer to be read as a column
	// name, for a CSV whose column is literally named "const".
	ColumnPrefix = "column:"
)

// ParseConfirm reads Confirm entries, one name=answer a line. Blank lines
// and lines starting with # are skipped; spaces around name and answer are
// trimmed. A name given twice is an error.
func ParseConfirm(text string) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, answer, ok := strings.Cut(line, "=")
		name, answer = strings.TrimSpace(name), strings.TrimSpace(answer)
		switch {
		case !ok || answer == "":
			return nil, fmt.Errorf("line %d: want name=column or name=const", n)
		case !ValidName(name):
			return nil, fmt.Errorf("line %d: %s is not a parameter name (snake_case)", n, quoteShort(name))
		case out[name] != "":
			return nil, fmt.Errorf("line %d: %s is answered twice", n, name)
		}
		out[name] = answer
	}
	return out, sc.Err()
}

// answer is one Confirm entry, read.
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
