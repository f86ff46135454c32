# reprise: `make demo` runs the daemon end to end; `make test` passes the tests.
# Both install what they need first (scripts/deps).

GO      ?= go
TOOLS   := $(CURDIR)/.tools/bin
export PATH := $(TOOLS):$(PATH)

# Chromium's sandbox cannot start as root (a container): a host running
# the tests or the demo as root turns it off, as docs/browser.md says.
ifeq ($(shell id -u 2>/dev/null),0)
export REPRISE_BROWSER_SANDBOX ?= false
endif

# Every target but the document extractor builds without cgo.
CROSS_TARGETS := darwin/arm64 darwin/amd64 windows/amd64 linux/amd64

.PHONY: all build test deps cross bench lint fuzz demo clean zoo zoo-exports zoo-bundle

all: build

deps:
	@scripts/deps

# The document extractor is its own cgo-built process (go-fitz bundles
# MuPDF); the daemon finds it beside itself and stays CGO_ENABLED=0.
build:
	CGO_ENABLED=0 $(GO) build -o bin/reprise ./cmd/reprise
	CGO_ENABLED=1 $(GO) build -o bin/reprise-fitz ./cmd/reprise-fitz

# Three packages at a time, four tests at a time in each: the end-to-end
# suites spend much of their time waiting on browsers, daemons and
# servers, and the last package to finish (cmd/reprise) would otherwise
# run two tests at a time on an idle machine.
#
# go test starts packages in the order named: the longest first, so that
# the short ones fill the cores around them instead of trailing after.
SLOW_PKGS := ./e2e/forms ./cmd/reprise ./internal/zoo ./interop ./replay/browser ./capture/chrome ./replay/desktop ./replay/hub
#
# -trimpath keeps source paths out of the build cache's keys: a fresh clone
# (CI's) reuses what an earlier clone compiled instead of building every
# package again, about a sixth of the suite's CPU time.
test: deps
	GOFLAGS="-trimpath $(GOFLAGS)" scripts/with-keyring $(GO) test -race -count=1 -p 3 -parallel 4 -timeout 45m $(SLOW_PKGS) ./...

cross:
	@set -e; for t in $(CROSS_TARGETS); do \
		os=$${t%/*}; arch=$${t#*/}; ext=; [ $$os = windows ] && ext=.exe; \
		echo "cross: $$os/$$arch"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -o /dev/null ./... ; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -o dist/reprise-$$os-$$arch$$ext ./cmd/reprise ; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) vet ./... ; \
	done

bench: deps
	@scripts/bench

lint: deps
	@out=$$(gofmt -l $$(git ls-files '*.go')); [ -z "$$out" ] || { echo "gofmt would change:"; echo "$$out"; exit 1; }
	$(GO) vet ./...
	staticcheck ./...

# Short coverage-guided runs of every decoder's fuzz test.
FUZZTIME ?= 20s
FUZZ_PKGS := ./events ./ops ./capture/scripted ./redact ./store ./consent ./extract ./skills ./skills/learn ./skills/cells ./model ./platform/ax/axpath ./selector ./replay/heal ./internal/termtext
fuzz:
	@set -e; for p in $(FUZZ_PKGS); do for f in $$($(GO) test -list '^Fuzz' $$p | grep '^Fuzz'); do \
		$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 10x $$p ; \
	done; done

# The demo needs no Windows, so no Wine.
demo:
	@scripts/deps --without-wine
	@$(MAKE) --no-print-directory build
	@scripts/demo

clean:
	rm -rf bin dist .demo

# The form zoo as a soak: every form, 100 rows each (make test runs 10).
ZOO_ROWS ?= 100
zoo: deps
	REPRISE_ZOO_ROWS=$(ZOO_ROWS) scripts/with-keyring $(GO) test -count=1 -timeout 90m -run '^TestZoo' ./e2e/forms/

# The export matrix: each zoo form's skill exported as a Playwright spec, an
# @puppeteer/replay script and a Recorder flow per row, each run with the
# real tool on a fresh site and judged field by field (10 rows a form); and
# the import round trips: the demonstrated rows written as Chrome's Recorder
# and Selenium IDE record them, imported with --resolve, built and replayed.
EXPORT_ROWS ?= 10
zoo-exports: deps
	REPRISE_ZOO_EXPORTS=1 REPRISE_ZOO_IMPORTS=1 REPRISE_ZOO_ROWS=$(EXPORT_ROWS) scripts/with-keyring $(GO) test -count=1 -timeout 90m -run '^TestZoo' -v ./e2e/forms/

# The form zoo's library forms (antd, React Aria, Mantine): npm ci and
# esbuild into internal/zoo/forms/lib, which is committed; tests need neither.
zoo-bundle:
	@scripts/zoo-bundle
