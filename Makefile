# traced: thin named targets. `make run` serves, `make test` runs every test.
GO      ?= go
ARGS    ?=
BENCH   ?= .
BENCHFLAGS ?=
# npm packages the tests use (runners, servers, the MCP TypeScript client, two DAP clients, the
# dashboard's browser driver), each from its lockfile.
BROWSER  = tests/browser
NPM_FIXTURES = tests/testdata/runners/npm tests/testdata/runners/realworld-jest tests/testdata/servers/npm tests/testdata/mcpclient tests/testdata/dapclient tests/testdata/dapclient2 $(BROWSER)

.PHONY: build run test vet lint-api e2e-deps fmt tidy bench fuzz clean jaeger

# bin/traced is the light entry (client commands link nothing of the service: issue 25, point
# 16); it runs bin/traced-server, the whole of traced, for serve, run, mcp and dap.
build:
	CGO_ENABLED=0 $(GO) build -o bin/traced-server ./cmd/traced
	CGO_ENABLED=0 $(GO) build -o bin/traced ./cmd/traced-cli

run: build
	./bin/traced serve $(ARGS)

test: vet lint-api $(addsuffix /node_modules,$(NPM_FIXTURES))
	$(GO) test -race -count=1 -timeout 45m ./...

vet:
	$(GO) vet ./...

# The contract must pass Redocly's recommended rules with no error and no warning (redocly exits
# 0 on warnings, hence the grep). The linter is pinned in tools/redocly/package-lock.json.
REDOCLY = tools/redocly
lint-api: $(REDOCLY)/node_modules
	@out=$$(npx --no-install --prefix $(REDOCLY) redocly lint --extends recommended --format=stylish api/openapi.yaml 2>&1); \
	rc=$$?; echo "$$out" | grep -v '[║╔╚]'; \
	if [ $$rc -ne 0 ] || echo "$$out" | grep -q 'You have [0-9]* warning'; then \
		echo "lint-api: api/openapi.yaml must have 0 errors and 0 warnings"; exit 1; fi

# npm ci installs exactly the locked linter; again whenever the lock changes.
$(REDOCLY)/node_modules: $(REDOCLY)/package-lock.json
	@command -v npm >/dev/null || { echo "lint-api needs npm (Node.js 20.19+ with npm)"; exit 1; }
	cd $(REDOCLY) && npm ci --no-audit --no-fund
	@touch $@

# The npm packages traced is tested with (test runners, servers, the MCP client, playwright-core
# and axe-core for the dashboard's browser test), exactly as locked. The browser itself is
# Debian's chromium, which .ci/run installs.
%/node_modules: %/package-lock.json
	@command -v npm >/dev/null || { echo "the npm test fixtures need npm"; exit 1; }
	cd $* && npm ci --no-audit --no-fund
	@touch $@

# The dashboard's browser test's npm packages alone (tests/dashboard_test.go).
e2e-deps: $(BROWSER)/node_modules

# Jaeger all-in-one, the tracing backend the OTLP export is tested against (tests/otlp_jaeger_test.go),
# built from tools/jaeger, a module of its own so that Jaeger's dependencies stay out of go.mod.
# Built once into the CI cache (minutes the first time: see tools/jaeger/README.md), unoptimised
# and without symbols, which builds a third faster: the test sends it one trace. The version is
# in the path, so a new one builds anew. The test finds it there, or at $$TRACED_JAEGER.
JAEGER_VERSION = 1.75.0
TRACED_CI_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/traced-ci
JAEGER = $(TRACED_CI_CACHE)/jaeger-$(JAEGER_VERSION)/jaeger
jaeger: $(JAEGER)
$(JAEGER):
	@mkdir -p $(dir $@)
	cd tools/jaeger && CGO_ENABLED=0 $(GO) build -gcflags=all='-N -l' -ldflags='-s -w' -o $@.tmp github.com/jaegertracing/jaeger/cmd/jaeger
	mv $@.tmp $@

fmt:
	gofmt -w $$(git ls-files '*.go')

tidy:
	$(GO) mod tidy

# Benchmarks against real node: CDP round trip, console capture throughput, session start, API latency.
# `make bench BENCH=CLIOverhead` sets a CLI command (the light entry, and the whole binary)
# beside the bare request to the same route (issue 25: at most 10 ms over it).
# `make bench BENCH=RawVsTraced` sets traced beside a bare CDP client in the same run and prints
# raw and traced median time per operation and their ratio (issue 16); BENCHFLAGS passes flags,
# e.g. BENCH=RawVsTraced/console BENCHFLAGS=-benchtime=5x (100k console lines: ~10 s a run).
bench:
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem $(BENCHFLAGS) ./...

# A short run of every fuzz target (their seed corpora already run in `make test`). Budgets are
# counts, not times: a -fuzztime deadline can end a run with a spurious error (golang/go#75804).
FUZZN ?= 200000x
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzInspectorURL$$' -fuzztime $(FUZZN) ./internal/engine
	$(GO) test -run '^$$' -fuzz '^FuzzWorkspacePath$$' -fuzztime $(FUZZN) ./internal/engine
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZN) ./internal/cdp
	$(GO) test -run '^$$' -fuzz '^FuzzHostAllowed$$' -fuzztime $(FUZZN) ./internal/routes
	$(GO) test -run '^$$' -fuzz '^FuzzRouter$$' -fuzztime 20000x ./internal/routes
	$(GO) test -run '^$$' -fuzz '^FuzzVLQ$$' -fuzztime $(FUZZN) ./internal/sourcemap
	$(GO) test -run '^$$' -fuzz '^FuzzReverseIndex$$' -fuzztime $(FUZZN) ./internal/sourcemap

clean:
	rm -rf bin $(REDOCLY)/node_modules $(addsuffix /node_modules,$(NPM_FIXTURES))
