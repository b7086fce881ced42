# traced: thin named targets. `make run` serves, `make test` runs every test.
GO      ?= go
ARGS    ?=
BENCH   ?= .

.PHONY: build run test vet fmt tidy bench fuzz clean

build:
	CGO_ENABLED=0 $(GO) build -o bin/traced ./cmd/traced

run: build
	./bin/traced serve $(ARGS)

test: vet
	$(GO) test -race -count=1 ./...

vet:
	$(GO) vet ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

tidy:
	$(GO) mod tidy

# Benchmarks against real node: CDP round trip, console capture throughput, session start, API latency.
bench:
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem ./...

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
	rm -rf bin
