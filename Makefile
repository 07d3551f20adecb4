# The two commands a person needs are `make run` and `make test` (see README.md). Both
# install what is missing first (scripts/setup.sh), saying what each step does.
SHELL := /bin/bash
.DEFAULT_GOAL := help
export APP_CACHE_DIR ?= $(HOME)/.cache/app

.PHONY: help run test setup app headless bench fuzz lint clean

help:
	@echo "make run    build and open the desktop app with a local demo Weaviate"
	@echo "make test   run every test suite (installs what is missing)"
	@echo "make app    build build/bin/app (Wails, WebKitGTK 4.1 on Linux)"
	@echo "make bench  run the benchmarks and print ratios against their peers"
	@echo "make fuzz   fuzz the parsers of untrusted input for a short while each"

run:
	@bash scripts/run.sh

test:
	@bash scripts/test.sh

setup:
	@bash scripts/setup.sh test

# The desktop binary. wails build runs the frontend build from wails.json, generates the
# bindings and compiles with the desktop+production tags.
app:
	@bash scripts/build-app.sh

# A binary for headless use and tests that need no GTK at run time.
headless:
	go build -o build/bin/app-headless .

bench:
	@bash scripts/bench.sh

fuzz:
	@bash scripts/fuzz.sh

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: the files above need formatting"; exit 1; }
	go vet ./...

clean:
	rm -rf build/bin frontend/dist/assets frontend/dist/index.html
