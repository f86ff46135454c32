// Package events holds the trajectory schema (SPEC section 4), its encodings
// on the log, the names of subjects, streams and buckets (SPEC section 3), and
// typed helpers to publish and consume them.
package events

// SchemaVersion is the trajectory schema version written on every recording.
const SchemaVersion = "1.0"

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
	strategies = set(StrategyID, StrategyName, StrategyLabel, StrategyRoleText, StrategyXPath)
)

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}
