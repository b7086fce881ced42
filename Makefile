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

# A short run of every fuzz target (seed corpora already run as part of `make test`).
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzInspectorURL -fuzztime 20s ./internal/engine
	$(GO) test -run '^$$' -fuzz FuzzWorkspacePath -fuzztime 20s ./internal/engine
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime 20s ./internal/cdp
	$(GO) test -run '^$$' -fuzz FuzzHostAllowed -fuzztime 20s ./internal/routes

clean:
	rm -rf bin
