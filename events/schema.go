// Package events holds the trajectory schema (SPEC section 4), its encodings
// on the log, the names of subjects, streams and buckets (SPEC section 3), and
// typed helpers to publish and consume them.
package events

// SchemaVersion is the trajectory schema version written on every recording.
// 1.1 adds optional fields (a step's inferred flag, effect and field
// inventory, a choice control's options), each omitted when empty, so a 1.0
// step encodes exactly as before and a 1.0 reader that ignores unknown keys
// reads 1.1. 1.2 adds an element's container and whether a field needed
// keys (both omitted when empty). 1.3 adds the css selector strategy and an
// effect's url_unknown, which recordings imported from other tools carry,
// and an effect's echoed: the labels of the fields whose values the page
// after the step showed (labels only, never the values). Readers accept
// any 1.x. 1.4 adds an enrichment's multiple: the control holds a set (a
// tag picker, a multi-select list, a group of boxes), and the value's raw
// lists the options it held, one per line. 1.5 adds an enrichment's half:
// which end of a range control (two dates picked in one calendar) the fill
// step sets, "start" or "end"; the range's two dates are then two fill
// steps on the same control, one a half.
const SchemaVersion = "1.5"

// Recording is a whole demonstration: its identity, its route and its steps.
type Recording struct {
	RecordingID         string  `json:"recording_id" msgpack:"recording_id"`
	Version             string  `json:"version" msgpack:"version"`
	CreatedAt           float64 `json:"created_at" msgpack:"created_at"`
	MachineID           string  `json:"machine_id" msgpack:"machine_id"`
	InterpretationRoute string  `json:"interpretation_route" msgpack:"interpretation_route"`
	Steps               []Step  `json:"steps" msgpack:"steps"`
	RedactionApplied    bool    `json:"redaction_applied" msgpack:"redaction_applied"`
}

// Step is one intentful action with its floor (action, frame, cursor, app,
// window) and whatever enrichment a channel could add.
type Step struct {
	Seq           uint64      `json:"seq" msgpack:"seq"`
	TS            float64     `json:"ts" msgpack:"ts"`
	Actor         string      `json:"actor" msgpack:"actor"`
	Action        string      `json:"action" msgpack:"action"`
	ScreenshotRef string      `json:"screenshot_ref" msgpack:"screenshot_ref"`
	Cursor        []int       `json:"cursor" msgpack:"cursor"`
	ActiveApp     string      `json:"active_app" msgpack:"active_app"`
	ActiveWindow  string      `json:"active_window" msgpack:"active_window"`
	Enrichment    *Enrichment `json:"enrichment" msgpack:"enrichment"`
	Value         *Value      `json:"value" msgpack:"value"`
	Narration     *string     `json:"narration" msgpack:"narration"`
	Outcome       string      `json:"outcome" msgpack:"outcome"`
	Redacted      bool        `json:"redacted" msgpack:"redacted"`

	// Inferred (1.1) says no event showed the person make this change: a
	// control's state differed from the last one a step explained when the
	// page was checked (before a destructive step), so the recorder made
	// the step from the state.
	Inferred bool `json:"inferred,omitempty" msgpack:"inferred,omitempty"`
	// Effect (1.1) is what followed a destructive step, on a submit or a
	// commit click: how success looked in this demonstration.
	Effect *Effect `json:"effect,omitempty" msgpack:"effect,omitempty"`
	// Fields (1.1) is the form's field inventory at a destructive step:
	// every control the person could have set, touched or not. No values.
	Fields []Field `json:"fields,omitempty" msgpack:"fields,omitempty"`
}

// Effect is what the page did after a destructive step, observed until it
// settled. Texts and URL may quote what was filed, so an effect is sealed
// and redacted like a value.
type Effect struct {
	// URL is the page's address once settled, when it changed; empty when
	// the page stayed where it was.
	URL string `json:"url,omitempty" msgpack:"url,omitempty"`
	// URLUnknown (1.3) says nobody saw where the page went: a recording
	// imported from a tool that checked only a text after the step. URL
	// is then empty without meaning the page stayed.
	URLUnknown bool `json:"url_unknown,omitempty" msgpack:"url_unknown,omitempty"`
	// Texts are texts that appeared on the page (a banner, an alert, a
	// heading of the next page), each cut short, at most a few.
	Texts []string `json:"texts,omitempty" msgpack:"texts,omitempty"`
	// FormReset says the form's fields went back to empty or their defaults.
	FormReset bool `json:"form_reset,omitempty" msgpack:"form_reset,omitempty"`
	// Status is the HTTP status of the request the step sent (the form's
	// navigation, or the page's own fetch or XHR); 0 when none was seen.
	Status int `json:"status,omitempty" msgpack:"status,omitempty"`
	// Millis is how long after the action the last change came.
	Millis int `json:"millis,omitempty" msgpack:"millis,omitempty"`
	// Echoed (1.3) are the labels (as in the step's Fields) of the
	// submitted form's fields whose submitted value the settled page
	// after the step showed: a confirmation page, the saved record, a row
	// in a list. Only labels: the values were compared in the browser and
	// went no further. At most 50.
	Echoed []string `json:"echoed,omitempty" msgpack:"echoed,omitempty"`
}

// Field is one control of a form as the page showed it: how it is named
// and what it offers, never what it holds.
type Field struct {
	Label     string     `json:"label" msgpack:"label"`
	Role      string     `json:"role" msgpack:"role"`
	Type      string     `json:"type,omitempty" msgpack:"type,omitempty"`
	Name      string     `json:"name,omitempty" msgpack:"name,omitempty"`
	Required  bool       `json:"required,omitempty" msgpack:"required,omitempty"`
	Selectors []Selector `json:"selectors,omitempty" msgpack:"selectors,omitempty"`
	Options   []Option   `json:"options,omitempty" msgpack:"options,omitempty"`
}

// Option is one choice of a choice control: the label it shows and, where
// it differs, the value the page submits.
type Option struct {
	Label string `json:"label" msgpack:"label"`
	Value string `json:"value,omitempty" msgpack:"value,omitempty"`
}

// Enrichment is what a channel (DOM or accessibility tree) knew about the
// element a step touched.
type Enrichment struct {
	Kind      string     `json:"kind" msgpack:"kind"`
	Selectors []Selector `json:"selectors" msgpack:"selectors"`
	AXPath    *string    `json:"ax_path" msgpack:"ax_path"`
	Role      string     `json:"role" msgpack:"role"`
	Label     string     `json:"label" msgpack:"label"`
	URL       string     `json:"url" msgpack:"url"`
	// Options (1.1) are a choice control's options, for a step on a
	// radio group, list, combo box or menu: the closed set its value is
	// one of. Empty where the list depends on what is typed (autocomplete).
	Options []Option `json:"options,omitempty" msgpack:"options,omitempty"`
	// Container (1.2) is the nearest named group, list, tab panel or
	// dialog around the element, given when another element on the page
	// has the same role and label: what a selector's `in` names to tell
	// them apart.
	Container *Container `json:"container,omitempty" msgpack:"container,omitempty"`
	// Keyed (1.2) says a fill's field reacted to the person's keys: its
	// script rewrote what was typed, or refused a key. A replay types it
	// key by key rather than setting its value.
	Keyed bool `json:"keyed,omitempty" msgpack:"keyed,omitempty"`
	// Dialog (1.2) is how the person answered a confirm or prompt the
	// step opened, when they cancelled it: "dismiss". A replay cancels it
	// too; a dialog accepted (the default) is not recorded.
	Dialog string `json:"dialog,omitempty" msgpack:"dialog,omitempty"`
	// Multiple (1.4) says the choice control holds a set: the step's
	// value lists the options it held after the step, one per line.
	Multiple bool `json:"multiple,omitempty" msgpack:"multiple,omitempty"`
	// Half (1.5) says which end of a range the fill step sets, on a
	// control that holds two dates at once and shows them as one (a date
	// range picker whose days are both clicked in its calendar): "start"
	// or "end". The step's value is that end's date alone (ISO 8601); a
	// range is recorded as its start's step, then its end's.
	Half string `json:"half,omitempty" msgpack:"half,omitempty"`
}

// DialogDismiss is Enrichment.Dialog for a dialog the person cancelled.
const DialogDismiss = "dismiss"

// The halves of a range (Enrichment.Half).
const (
	HalfStart = "start"
	HalfEnd   = "end"
)

// Container names an element's container by its role and name.
type Container struct {
	Role string `json:"role" msgpack:"role"`
	Name string `json:"name" msgpack:"name"`
}

// Selector is one way to find an element again; a step's selectors are
// ordered most-stable-first.
type Selector struct {
	Strategy string `json:"strategy" msgpack:"strategy"`
	Value    string `json:"value" msgpack:"value"`
}

// Value is the committed value of a field, never a keystroke tape.
type Value struct {
	Raw         string `json:"raw" msgpack:"raw"`
	Type        string `json:"type" msgpack:"type"`
	IsParameter *bool  `json:"is_parameter" msgpack:"is_parameter"`
}

// Actors.
const (
	ActorHuman = "human"
	ActorAgent = "agent"
)

// Enrichment kinds.
const (
	KindDOM  = "dom"
	KindAX   = "ax"
	KindNone = "none"
)

// Outcomes.
const (
	OutcomeOK      = "ok"
	OutcomeError   = "error"
	OutcomeUnknown = "unknown"
)

// Value types.
const (
	ValueText   = "text"
	ValueEmail  = "email"
	ValueNumber = "number"
	ValueDate   = "date"
	ValueSecret = "secret"
	ValueFile   = "file"
	ValueEnum   = "enum"
)

// Action verbs.
const (
	ActionNavigate    = "navigate"
	ActionFill        = "fill"
	ActionSelect      = "select"
	ActionClick       = "click"
	ActionSubmit      = "submit"
	ActionUpload      = "upload"
	ActionLaunchApp   = "launch_app"
	ActionFocusWindow = "focus_window"
	ActionCopy        = "copy"
	ActionPaste       = "paste"
	ActionRun         = "run"
	ActionFileOp      = "file_op"
	ActionWait        = "wait"
	ActionAssert      = "assert"
)

// Selector strategies, from most to least stable.
const (
	StrategyID       = "id"
	StrategyName     = "name"
	StrategyLabel    = "label"
	StrategyRoleText = "role+text"
	StrategyCSS      = "css"
	StrategyXPath    = "xpath"
)

var (
	actors     = set(ActorHuman, ActorAgent)
	kinds      = set(KindDOM, KindAX, KindNone)
	outcomes   = set(OutcomeOK, OutcomeError, OutcomeUnknown)
	valueTypes = set(ValueText, ValueEmail, ValueNumber, ValueDate, ValueSecret, ValueFile, ValueEnum)
	actions    = set(ActionNavigate, ActionFill, ActionSelect, ActionClick, ActionSubmit,
		ActionUpload, ActionLaunchApp, ActionFocusWindow, ActionCopy, ActionPaste, ActionRun,
		ActionFileOp, ActionWait, ActionAssert)
	strategies = set(StrategyID, StrategyName, StrategyLabel, StrategyRoleText, StrategyCSS, StrategyXPath)
)

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}
