package arch

// Reprise is the picture of reprise's packages: every package of the module
// (as linux, darwin and windows build it) is in one layer, and imports only
// what its layer may. The test-only layers come first: only tests import
// them, so no product layer sits above them. Then the product, top to
// bottom: cmd composes everything, the daemon composes the services, the
// services sit on the executors, the capture sources and the domain, which
// sit on the OS bindings; events and ops are at the bottom.
var Reprise = Picture{
	Layers: []Layer{
		{
			Name:     "e2e",
			Packages: []string{"internal/paired", "internal/demo", "internal/e2e", "e2e/..."},
			May:      []string{"e2e", "testkit", Below},
			TestOnly: true,
			Why:      "they play a person through the whole product: a daemon, Chromium with the extension paired (make demo is one such run, e2e/forms the form zoo), and start the binary as a person's machine does",
		},
		{
			Name: "testkit",
			Packages: []string{
				"internal/natstest", "internal/pages", "internal/scripted", "internal/syncbuf",
				"internal/xvfb", "internal/wine/...", "internal/zoo",
				"capture/capturetest", "replay/replaytest", "selector/selectortest",
				"interop/interoptest", "replay/browser/certproxy/certtest",
			},
			May:      []string{"testkit", "sources", "domain", "platform", "server", "wire", "vocabulary"},
			TestOnly: true,
			Why:      "conformance suites and fixtures stand on what they test (a source, the replay engine, the selector model) and on the real parts a test starts: a server, a desktop, Wine",
		},
		{
			Name:     "tools",
			Packages: []string{"internal/arch", "internal/benchreport", "internal/codegen"},
			May:      []string{Below},
			Why:      "tools over the tree and its output (this test, make bench's report, go generate's files): nothing imports them, so they may read any package",
		},
		{
			Name:     "cmd",
			Packages: []string{"cmd/..."},
			May:      []string{Below},
			Why:      "the binaries compose everything: the CLI's subcommands, the daemon's entry, the fitz helper",
		},
		{
			Name:     "daemon",
			Packages: []string{"daemon"},
			May:      []string{Below},
			Why:      "the daemon composes the shim: the server, the store, the services and the sources, and writes the credentials file the client reads",
		},
		{
			Name:     "client",
			Packages: []string{"client"},
			May:      []string{"api", "wire", "events"},
			Why:      "the CLI talks to the daemon over NATS only, in the wire's and api's types: it links no service, no server, no capture",
		},
		{
			Name:     "session",
			Packages: []string{"replay/session"},
			May:      []string{Below},
			Why:      "one replay session puts the services a run needs together (the executor pick, healing, the hub) for the CLI's replay, the hub worker and the co-pilot's dry run; it talks to the daemon through no client",
		},
		{
			Name: "services",
			Packages: []string{
				"recorder", "recordings", "skillbook", "review", "consent", "computer/...",
				"replay/heal", "elements", "doctor", "replay/pick", "replay/hub", "copilot", "interop/live",
			},
			May: []string{"recordings", "computer", "api", "executors", "sources", "domain", "platform", "wire", "vocabulary", "leaves"},
			Why: "what the daemon and the CLI run, each on the executors, the sources and the domain; a service stands on no other but recordings (the read model the recorder writes through) and computer (the grants computer/script acts through)",
		},
		{
			Name:     "executors",
			Packages: []string{"replay/browser/...", "replay/desktop"},
			May:      []string{"replay/browser/certproxy", "api", "domain", "platform", "vocabulary", "leaves"},
			Why:      "an executor carries out the replay engine's steps through the OS bindings or Chromium (its launcher, the extension, a lock); how steps were recorded is not its business; the desktop one asks its guard in api's own request type",
		},
		{
			Name:     "sources",
			Packages: []string{"capture/..."},
			May:      []string{"sources", "platform", "vocabulary"},
			Why:      "a capture source turns OS or browser input into events' steps through the OS bindings; where they are kept and what is made of them is not its business",
		},
		{
			Name: "domain",
			Packages: []string{
				"skills", "skills/learn", "skills/cells", "replay", "replay/rows", "replay/report", "interop", "interpret",
				"extract", "model", "redact", "audit", "store",
			},
			May: []string{"domain", "platform/ax/axpath", "wire", "vocabulary"},
			Why: "skills, their replay, and what they are made from (text, models, redaction, sealing, the audit log): pure logic and adapters that know nothing of capture, executors or services; a step keeps its AX path in the platforms' format",
		},
		{
			Name:     "platform",
			Packages: []string{"platform/..."},
			May:      []string{"platform", "vocabulary"},
			Why:      "the OS bindings recording and replay share: they speak events' and the selector model's words and know each other, nothing above",
		},
		{
			Name:     "server",
			Packages: []string{"embedded"},
			May:      []string{"events", "extension"},
			Why:      "the embedded NATS server builds its permissions from events' subjects and trusts the extension's origin",
		},
		{
			Name:     "api",
			Packages: []string{"api"},
			May:      []string{"events", "ops"},
			Why:      "the request and reply types of the CLI's calls to the daemon, which the client and the services share",
		},
		{
			Name:     "wire",
			Packages: []string{"ops", "internal/chunked"},
			May:      []string{"wire", "events"},
			Why:      "the wire ops and the local services' envelope, on events' subjects; replies past NATS's limit go in chunks",
		},
		{
			Name:     "vocabulary",
			Packages: []string{"events", "selector", "internal/mpack"},
			May:      []string{"internal/mpack"},
			Why:      "the words every layer shares: the trajectory schema and subjects (msgpack by hand on the hot paths), and the selector model; they import nothing else of reprise",
		},
		{
			Name:     "leaves",
			Packages: []string{"internal/flock", "internal/termtext", "internal/progress", "internal/chromium", "extension"},
			Why:      "small tools that import nothing of reprise: a file lock, terminal-safe text and typing, the progress bar, the Chromium launcher, the extension's files",
		},
	},
	TestsMay: []string{"testkit", "embedded", "internal/chromium"},
	EndToEnd: map[string]string{
		"cmd/reprise":    "the CLI's tests run the binary against a daemon, Chromium with the extension paired, desktops under Xvfb and Wine",
		"capture/chrome": "the browser channel is tested from a person's clicks in Chromium through a daemon's recorder to a skill and its replay",
		"client":         "the client is tested against a real daemon: the wire between them is what it holds",
	},
}

// Rules are what an allow-list of layers cannot say: the packages from
// outside the module that only one of reprise's may import. Check holds
// them on code; tests may start a server (TestsMay).
var Rules = []Rule{
	{
		From:   []string{"..."},
		Deny:   []string{"github.com/nats-io/nats-server/v2/..."},
		Allow:  map[string][]string{"embedded": {"github.com/nats-io/nats-server/v2/..."}},
		Direct: true,
		Why:    "the NATS server runs in embedded only; everything else is a client",
	},
}
