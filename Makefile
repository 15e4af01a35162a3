# The project's commands; `make help` lists them. .ci/run installs what the tests run for real
# and then runs `make check`.

# Go 1.26.8, the machine's, has standard-library vulnerabilities that our code reaches
# (net/http, crypto/x509, crypto/tls); the go command fetches this release from the module
# proxy on first use (about 76 MB, 10 s).
export GOTOOLCHAIN := go1.27.3

STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
GOVULNCHECK := golang.org/x/vuln/cmd/govulncheck@v1.9.0
# The Go vulnerability database as published in the golang.org/x/vulndb module on that date;
# raise it to check against newer advisories.
VULNDB_VERSION := v0.0.0-20261105234957-e22db6528018
VULNDB := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/mini-claude/vulndb-$(VULNDB_VERSION)
# Each fuzz target as package:Target; `make fuzz FUZZTIME=5m` fuzzes longer.
FUZZ_TARGETS := ./internal/shell:FuzzAnalyze ./internal/tool:FuzzParse \
	./internal/tools/edit:FuzzMatch ./internal/tools/read:FuzzReadWindow
FUZZTIME ?= 10s
# The e2e test to run with `make e2e RUN=TestName`.
RUN ?= .

.PHONY: help build test vet lint vuln fuzz bench bench-compile startguard golden highlight e2e check

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

build: ## build the static binary ./mini-claude
	CGO_ENABLED=0 go build -ldflags="-s -w" -o mini-claude ./cmd/mini-claude

vet: ## go vet
	go vet ./...

test: vet ## vet, then every test with the race detector
	go test -race ./...

lint: ## staticcheck, configured in staticcheck.conf
	go run $(STATICCHECK) ./...

$(VULNDB)/index/db.json:
	go mod download golang.org/x/vulndb@$(VULNDB_VERSION)
	go run golang.org/x/vulndb/cmd/indexdb@$(VULNDB_VERSION) \
		-vulns "$$(go env GOMODCACHE)/golang.org/x/vulndb@$(VULNDB_VERSION)/data/osv" -out $(VULNDB).tmp
	rm -rf $(VULNDB) && mv $(VULNDB).tmp $(VULNDB)

vuln: $(VULNDB)/index/db.json ## govulncheck against the pinned vulnerability database, offline
	go run $(GOVULNCHECK) -db file://$(VULNDB) ./...

fuzz: ## each fuzz target for FUZZTIME (seeds in the packages' testdata/fuzz)
	@set -e; for t in $(FUZZ_TARGETS); do \
		echo "fuzz $$t for $(FUZZTIME)"; \
		go test -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZTIME) "$${t%%:*}"; \
	done

bench-compile: ## every benchmark once, so they keep compiling and running
	go test -run '^$$' -bench . -benchtime 1x ./...

# The start-up guard fails when mini-claude's process start → first request, timed pair by pair
# against a minimal static Go program sending one request (bench/startguard/baseline), takes more
# than STARTGUARD_RATIO times as long (median of the pairs' ratios). Measured 2026-12-03 on 2
# shared cores: 3.8-4.3 at load 10, 4.9 for the binary before issue 23; a planted 20 ms sleep
# at start-up gives about 11.
STARTGUARD_RATIO ?= 6
startguard: ## time start → first request against a minimal Go program; fail above STARTGUARD_RATIO
	go run ./bench/startguard -max-ratio $(STARTGUARD_RATIO)

bench: ## the Go benchmarks, properly (the bench/ programs are run by hand, see BENCHMARKS.md)
	go test -run '^$$' -bench . -benchmem ./...

golden: ## rewrite the golden files under testdata/ of the packages that use internal/goldenfile
	go test $$(go list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... \
		| grep 'internal/goldenfile' | cut -d' ' -f1) -args -update

highlight: ## regenerate the syntax highlighter's tables
	go generate ./internal/highlight

e2e: ## one end-to-end test through the binary: make e2e RUN=TestName
	go test ./e2e -run '$(RUN)' -v

check: test lint vuln fuzz bench-compile startguard ## what CI runs
