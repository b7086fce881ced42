# traced: thin named targets. `make run` serves, `make test` runs every test.
GO      ?= go
ARGS    ?=
BENCH   ?= .
BENCHFLAGS ?=
# npm packages the tests use (runners, servers, the MCP TypeScript client), each from its lockfile.
NPM_FIXTURES = tests/testdata/runners/npm tests/testdata/servers/npm tests/testdata/mcpclient

.PHONY: build run test vet lint-api fmt tidy bench fuzz clean

build:
	CGO_ENABLED=0 $(GO) build -o bin/traced ./cmd/traced

run: build
	./bin/traced serve $(ARGS)

test: vet lint-api $(addsuffix /node_modules,$(NPM_FIXTURES))
	$(GO) test -race -count=1 ./...

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

# The npm packages traced is tested with (test runners, servers, the MCP client), exactly as locked.
%/node_modules: %/package-lock.json
	@command -v npm >/dev/null || { echo "the npm test fixtures need npm"; exit 1; }
	cd $* && npm ci --no-audit --no-fund
	@touch $@

fmt:
	gofmt -w $$(git ls-files '*.go')

tidy:
	$(GO) mod tidy

# Benchmarks against real node: CDP round trip, console capture throughput, session start, API latency.
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
	rm -rf bin $(REDOCLY)/node_modules
