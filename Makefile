# Web Coding Studio — the two commands a new user needs are `make run` and `make test`.
# Everything else is here for developers. Prerequisites for run: Go 1.26, and Node.js with npm
# (the site build runs `npm ci` in site/ once, to bundle CodeMirror). `make test` also starts
# throwaway Redis and PostgreSQL servers (scripts/services.sh) and drives Debian's Chromium and
# its headless shell,
# installing them from Debian packages when missing.

GO       ?= go
ADDR     ?= 127.0.0.1:8080
BASE     ?= /web-coding/
DIST     ?= dist
TESTTAGS := conformance

.PHONY: run build test lint bench fuzz clean

## run: build the site and serve the studio at http://$(ADDR)$(BASE)
## (each step prints a line as it starts; the last line is the URL)
run: build
	@echo "make run: starting the server (go run ./host/cmd/webcoding serve --addr $(ADDR) --dir $(DIST))" >&2
	$(GO) run ./host/cmd/webcoding serve --addr $(ADDR) --dir $(DIST)

## build: the static site under $(DIST)/ plus the CLI
build:
	@echo "make build: compiling the webcoding CLI (go run; the first time Go also downloads the modules and compiles esbuild, wazero and the database drivers), then building the site" >&2
	$(GO) run ./host/cmd/webcoding build --base $(BASE) --out $(DIST)

## test: lint, then every test (native, wazero, real Redis and PostgreSQL)
test: lint
	bash scripts/test.sh

## lint: gofmt, and go vet for the native, js and wasip1 builds (the layout rules run in go test)
lint:
	@bad=$$(gofmt -l wasm host scripts e2e 2>/dev/null); if [ -n "$$bad" ]; then echo "gofmt needed:"; echo "$$bad"; exit 1; fi
	$(GO) vet -tags $(TESTTAGS) ./...
	GOOS=js GOARCH=wasm $(GO) vet ./wasm/...
	GOOS=wasip1 GOARCH=wasm $(GO) vet ./wasm/...

## bench: the benchmark tables of docs/performance.md
bench:
	bash scripts/bench.sh

## fuzz: run every fuzz target for FUZZTIME each (default 60s)
fuzz:
	bash scripts/fuzz.sh

clean:
	rm -rf $(DIST)
