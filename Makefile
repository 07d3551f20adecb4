# The two commands a person needs are `make run` and `make test` (see README.md). Both
# install what is missing first (scripts/setup.sh), saying what each step does.
SHELL := /bin/bash
.DEFAULT_GOAL := help
export APP_CACHE_DIR ?= $(HOME)/.cache/app

.PHONY: help run test check setup app headless plugins dist release bench bench-compare soak fuzz lint clean

# One line per target of this file; `make lint` fails when a target is missing here.
help:
	@echo "make help      this list"
	@echo "make run       build and open the desktop app with a local demo Weaviate"
	@echo "make test      run every test suite (installs what is missing first)"
	@echo "make check     the fast lane: static checks, unit tests, Vitest, the driver conformance suite on one node"
	@echo "make setup     install what make test needs, without testing (scripts/setup.sh test)"
	@echo "make app       build build/bin/app, the desktop app (Wails, WebKitGTK 4.1 on Linux)"
	@echo "make headless  build build/bin/app-headless: no GTK needed, for --headless and the CLI"
	@echo "make plugins   build the driver plugin for six platforms into a signed registry (build/registry)"
	@echo "make dist      build the Linux packages (.deb, .rpm, .tar.gz) with their driver into build/dist"
	@echo "make release   the registry, packages, sums and release note into build/release (docs/release.md)"
	@echo "make bench     run the benchmarks and print ratios against their peers"
	@echo "make bench-compare REV=<commit>  MCP throughput of this tree against an older commit"
	@echo "make soak      64 MCP clients for an hour (SOAK=5m for less) on Weaviate, PostgreSQL and SQLite, weaviate-server and PostgreSQL restarted; checks writes, log, leaks"
	@echo "make fuzz      fuzz the parsers of untrusted input for a short while each"
	@echo "make lint      gofmt, go vet and staticcheck (installed on first use), and this list"
	@echo "make clean     remove the built binaries and the built frontend"

run:
	@bash scripts/run.sh

test:
	@bash scripts/test.sh

check:
	@bash scripts/check.sh

setup:
	@bash scripts/setup.sh test

# The desktop binary and, beside it, the stdio bridge app-mcp. wails build runs the frontend
# build from wails.json, generates the bindings and compiles with the desktop+production tags.
app:
	@bash scripts/build-app.sh

dist:
	@bash scripts/dist.sh

release:
	@bash scripts/release.sh

# The same program built without the Wails build tags: no GTK or WebKit at build or run time.
# It runs `--headless` (MCP server and connections, no window) and the CLI subcommands; it
# cannot open the window (that is build/bin/app, from `make app`).
headless:
	go build -o build/bin/app-headless .
	go build -o build/bin/app-mcp ./cmd/app-mcp

# The Weaviate driver plugin for linux/darwin/windows on amd64 and arm64, published into a
# signed registry directory (docs/plugins.md); the signing key comes from the environment.
plugins:
	@bash scripts/plugins.sh

bench:
	@bash scripts/bench.sh

bench-compare:
	@REV="$(REV)" bash scripts/bench-compare.sh

# The soak test (issue 25, "Faults and load"); not part of `make test`. SOAK is its length.
soak:
	@SOAK="$(SOAK)" bash scripts/soak.sh

fuzz:
	@bash scripts/fuzz.sh

# The static checks over the Go packages (node_modules left out, as in scripts/test.sh):
# gofmt, go vet, staticcheck (pinned in scripts/lib.sh, installed into $APP_CACHE_DIR/tools on
# first use as scripts/setup.sh does), and that `make help` lists every target of this file
# and .PHONY names each. Every check runs; the target fails at the end if one did.
lint:
	@. scripts/lib.sh; cd "$$ROOT"; status=0; \
	pkgs=$$(go list ./... | grep -v /node_modules/); \
	step "gofmt"; \
	bad=$$(gofmt -l $$(git ls-files '*.go' | grep -v /node_modules/)); \
	if [ -n "$$bad" ]; then echo "$$bad"; say "gofmt: the files above need formatting"; status=1; else say "gofmt clean"; fi; \
	step "go vet"; \
	if go vet $$pkgs; then say "go vet clean"; else status=1; fi; \
	step "staticcheck $$STATICCHECK_VERSION"; \
	if ! sc=$$(ensure_staticcheck); then status=1; elif "$$sc" $$pkgs; then say "staticcheck clean"; else status=1; fi; \
	step "make help lists every target of the Makefile"; \
	rules=$$(sed -nE 's/^([a-z][a-z0-9_-]*):([^=]|$$).*/\1/p' Makefile); \
	phony=" $$(sed -n 's/^\.PHONY://p' Makefile | tr -s ' \t' '  ') "; \
	listed=" $$(make -s --no-print-directory -f Makefile help | awk '$$1 == "make" { printf "%s ", $$2 }') "; \
	helpok=1; \
	for t in $$rules; do \
	  case "$$listed" in *" $$t "*) ;; *) say "make help does not list the target $$t: add a line for it"; helpok=0 ;; esac; \
	  case "$$phony" in *" $$t "*) ;; *) say "the target $$t is missing from .PHONY"; helpok=0 ;; esac; \
	done; \
	for t in $$listed $$phony; do \
	  grep -qx "$$t" <<<"$$rules" || { say "make help or .PHONY names $$t, which is no target"; helpok=0; }; \
	done; \
	if [ $$helpok = 1 ]; then say "make help lists all $$(wc -w <<<"$$rules") targets, each in .PHONY"; else status=1; fi; \
	exit $$status

clean:
	rm -rf build/bin frontend/dist/assets frontend/dist/index.html
