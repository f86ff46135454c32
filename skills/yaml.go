package skills

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MaxDocument bounds what Parse reads: a skill is a page of steps, and the
// YAML parser's work grows with its input.
const MaxDocument = 4 << 20

// Parse decodes and validates a skill document. Every error is an *Error
// naming the line and the field: unknown fields, wrong shapes, and anything
// Validate refuses. Anchors and aliases are refused: a skill is read by a
// person, and an alias bomb must not be expanded.
func Parse(data []byte) (*Skill, error) {
	if len(data) > MaxDocument {
		return nil, &Error{Problem: fmt.Sprintf("the document is larger than %d bytes", MaxDocument)}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{Line: 1, Problem: "the document is empty"}
		}
		return nil, syntaxError(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, syntaxError(err)
		}
		return nil, &Error{Line: extra.Line, Problem: "a skill file holds one YAML document; remove the second"}
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	d := decoder{lines: map[string]int{}}
	var s Skill
	if err := d.decode(root, "", reflect.ValueOf(&s).Elem()); err != nil {
		return nil, err
	}
	for i := range s.Steps {
		// "- expect: {...}" is a step of its own, written without an action.
		if st := &s.Steps[i]; st.Action == "" && st.Expect != nil {
			st.Action = ActionExpect
		}
	}
	if err := s.Validate(); err != nil {
		var e *Error
		if errors.As(err, &e) {
			e.Line = d.lineOf(e.Field)
		}
		return nil, err
	}
	return &s, nil
}

// Marshal writes the skill as YAML, two-space indented, each selector on its
// own line. It does not validate: a draft with open questions can be shown.
//
// Lists (the steps, the parameters) are encoded a few dozen items at a time
// and indented under their key: the YAML emitter keeps every event of a
// document until it ends, and a 20,000-step draft took half a gigabyte in
// one piece. The bytes are those of encoding the whole skill at once.
func Marshal(s *Skill) ([]byte, error) { return marshalInParts(s, marshalChunk, 0) }

// MarshalWithin is Marshal for a document that may be at most max bytes: it
// stops with a *TooBigError as soon as the skill passes max, rather than
// writing megabytes only to refuse them.
func MarshalWithin(s *Skill, max int) ([]byte, error) {
	return marshalInParts(s, marshalChunk, max)
}

// TooBigError is MarshalWithin's refusal: Part of the skill (its first
// 1,280 steps, its name...) already took more than Max bytes.
type TooBigError struct {
	Part string
	Max  int
}

func (e *TooBigError) Error() string {
	return fmt.Sprintf("%s already take more than the %d bytes the skill may be", e.Part, e.Max)
}

// marshalInParts writes the skill's fields one by one in their order, and a
// list of blocks (parameters, steps) chunk items at a time, each indented
// under its key, stopping once the document passes max (if max > 0).
func marshalInParts(s *Skill, chunk, max int) ([]byte, error) {
	var buf bytes.Buffer
	over := func(part string) error {
		if max > 0 && buf.Len() > max {
			return &TooBigError{Part: part, Max: max}
		}
		return nil
	}
	v := reflect.ValueOf(*s)
	for i := range v.NumField() {
		f, fv := v.Type().Field(i), v.Field(i)
		key, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if fv.Kind() == reflect.Slice && fv.Len() > 0 && !strings.Contains(opts, "flow") {
			buf.WriteString(key + ":\n")
			for at := 0; at < fv.Len(); at += chunk {
				end := min(at+chunk, fv.Len())
				var part bytes.Buffer
				if err := encodeYAML(&part, fv.Slice(at, end).Interface()); err != nil {
					return nil, fmt.Errorf("encode skill %s %d: %w", key, at+1, err)
				}
				for line := range bytes.Lines(part.Bytes()) {
					if len(bytes.TrimRight(line, "\n")) > 0 {
						buf.WriteString("  ")
					}
					buf.Write(line)
				}
				if err := over(fmt.Sprintf("its first %d %s", end, key)); err != nil {
					return nil, err
				}
			}
			continue
		}
		// The field alone, under its own tag, so flow and omitempty apply
		// as they do to the whole skill.
		one := reflect.New(reflect.StructOf([]reflect.StructField{{Name: f.Name, Type: f.Type, Tag: f.Tag}})).Elem()
		one.Field(0).Set(fv)
		var part bytes.Buffer
		if err := encodeYAML(&part, one.Interface()); err != nil {
			return nil, fmt.Errorf("encode skill %s: %w", key, err)
		}
		if part.String() != "{}\n" {
			buf.Write(part.Bytes())
		}
		if err := over("its " + key); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// marshalChunk is how many steps Marshal hands the emitter at once: fewer
// events held at a time, and measured the least work of 8, 32, 64 and 256 on
// a 20,000-step skill.
const marshalChunk = 64

func encodeYAML(w io.Writer, v any) error {
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return enc.Close()
}

// MarshalYAML writes a selector as a one-line flow mapping, so a step's
// selectors read as a short list.
func (s Selector) MarshalYAML() (any, error) {
	k1, v1, k2, v2 := &yaml.Node{}, &yaml.Node{}, &yaml.Node{}, &yaml.Node{}
	k1.SetString("strategy")
	v1.SetString(s.Strategy)
	k2.SetString("value")
	v2.SetString(s.Value)
	return &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{k1, v1, k2, v2}}, nil
}

// MarshalYAML writes an option as a one-line flow mapping.
func (o Option) MarshalYAML() (any, error) {
	n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	addPair(n, "label", o.Label)
	if o.Value != "" {
		addPair(n, "value", o.Value)
	}
	return n, nil
}

// MarshalYAML writes one condition as a flow mapping, several as a list of
// them: a skill written before lists were allowed reads the same.
func (cs Conditions) MarshalYAML() (any, error) {
	one := func(c Condition) *yaml.Node {
		n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		addPair(n, "kind", c.Kind)
		if c.Value != "" {
			addPair(n, "value", c.Value)
		}
		if c.Timeout != "" {
			addPair(n, "timeout", c.Timeout)
		}
		return n
	}
	if len(cs) == 1 {
		return one(cs[0]), nil
	}
	list := &yaml.Node{Kind: yaml.SequenceNode}
	for _, c := range cs {
		list.Content = append(list.Content, one(c))
	}
	return list, nil
}

func addPair(n *yaml.Node, k, v string) {
	kn, vn := &yaml.Node{}, &yaml.Node{}
	kn.SetString(k)
	vn.SetString(v)
	n.Content = append(n.Content, kn, vn)
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func syntaxError(err error) error {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Error{Line: line, Problem: "malformed YAML: " + m[2]}
	}
	return &Error{Problem: "malformed YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
}

// decoder fills the skill types from a node tree, refusing unknown fields,
// and remembers the line of every field path for Validate's errors.
type decoder struct {
	lines map[string]int
}

func (d *decoder) lineOf(field string) int {
	for {
		if l, ok := d.lines[field]; ok {
			return l
		}
		cut := strings.LastIndexAny(field, ".[")
		if cut < 0 {
			return d.lines[""]
		}
		field = field[:cut]
	}
}

func (d *decoder) decode(n *yaml.Node, path string, v reflect.Value) error {
	if _, ok := d.lines[path]; !ok {
		d.lines[path] = n.Line
	}
	fail := func(problem string) error { return &Error{Line: n.Line, Field: path, Problem: problem} }
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return fail("anchors and aliases are not supported in a skill; write the value out")
	}
	null := n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
	if null {
		v.SetZero()
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		if err := d.decode(n, path, p.Elem()); err != nil {
			return err
		}
		v.Set(p)
		return nil
	case reflect.Struct:
		return d.mapping(n, path, v)
	case reflect.Map:
		return d.stringMap(n, path, v)
	case reflect.Slice:
		if n.Kind == yaml.MappingNode && v.Type() == reflect.TypeFor[Conditions]() {
			// One condition, written as a mapping.
			var c Condition
			if err := d.decode(n, path+"[0]", reflect.ValueOf(&c).Elem()); err != nil {
				return err
			}
			v.Set(reflect.ValueOf(Conditions{c}))
			return nil
		}
		if n.Kind != yaml.SequenceNode {
			return fail("want a list")
		}
		if len(n.Content) == 0 {
			v.SetZero() // so that Parse(Marshal(s)) equals s: empty lists are omitted
			return nil
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, c := range n.Content {
			if err := d.decode(c, fmt.Sprintf("%s[%d]", path, i), s.Index(i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	}
	if n.Kind != yaml.ScalarNode {
		return fail("want a single value, not a list or mapping")
	}
	tag := n.ShortTag()
	switch v.Kind() {
	case reflect.String:
		switch tag {
		case "!!str", "!!int", "!!float", "!!bool", "!!timestamp":
			v.SetString(n.Value)
			return nil
		}
		return fail("want text")
	case reflect.Int:
		var i int
		if tag != "!!int" || n.Decode(&i) != nil {
			return fail("want a whole number")
		}
		v.SetInt(int64(i))
		return nil
	case reflect.Bool:
		var b bool
		if tag != "!!bool" || n.Decode(&b) != nil {
			return fail("want true or false")
		}
		v.SetBool(b)
		return nil
	}
	return fail("cannot hold a value of this kind") // unreachable for the skill types
}

func (d *decoder) mapping(n *yaml.Node, path string, v reflect.Value) error {
	if n.Kind != yaml.MappingNode {
		return &Error{Line: n.Line, Field: path, Problem: "want a mapping of fields"}
	}
	fields, names := fieldsOf(v.Type())
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		key := k.Value
		if len(key) > 40 {
			key = key[:40] + "..."
		}
		at := key
		if path != "" {
			at = path + "." + key
		}
		if k.Kind != yaml.ScalarNode {
			return &Error{Line: k.Line, Field: path, Problem: "a field name must be plain text"}
		}
		idx, ok := fields[k.Value]
		if !ok {
			return &Error{Line: k.Line, Field: at, Problem: "unknown field; known fields are " + names}
		}
		if seen[k.Value] {
			return &Error{Line: k.Line, Field: at, Problem: "field given twice"}
		}
		seen[k.Value] = true
		if err := d.decode(val, at, v.Field(idx)); err != nil {
			return err
		}
	}
	return nil
}

// stringMap fills a map of text to text, such as a parameter's options.
func (d *decoder) stringMap(n *yaml.Node, path string, v reflect.Value) error {
	if n.Kind != yaml.MappingNode {
		return &Error{Line: n.Line, Field: path, Problem: "want a mapping of text to text"}
	}
	if len(n.Content) == 0 {
		v.SetZero()
		return nil
	}
	m := reflect.MakeMapWithSize(v.Type(), len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || val.Kind != yaml.ScalarNode || k.Anchor != "" || val.Anchor != "" {
			return &Error{Line: k.Line, Field: path, Problem: "want text: text pairs"}
		}
		key := reflect.ValueOf(k.Value)
		if m.MapIndex(key).IsValid() {
			return &Error{Line: k.Line, Field: path, Problem: "a key is given twice"}
		}
		m.SetMapIndex(key, reflect.ValueOf(val.Value))
	}
	v.Set(m)
	return nil
}

// fieldsOf maps a struct's YAML names to field indexes.
func fieldsOf(t reflect.Type) (map[string]int, string) {
	m := make(map[string]int, t.NumField())
	names := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		m[name] = i
		names = append(names, name)
	}
	return m, strings.Join(names, ", ")
}
