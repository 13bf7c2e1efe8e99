#!/usr/bin/env bash
# make test: every suite. Installs what it needs, starts local services when present.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "services"
eval "$(bash scripts/services.sh)"
echo "postgres: ${LATCH_TEST_POSTGRES:-absent (SQLite only)}"
echo "redis:    ${LATCH_TEST_REDIS:-absent (memory only)}"

step "seed data"
node data/validate_data.mjs

step "licences and pinned versions (package-lock.json)"
node scripts/check-licenses.mjs

step "contracts: committed artifacts match the Solidity sources"
(cd contracts && npm ci --no-audit --no-fund --loglevel=error && node compile.mjs --check)

step "web: npm ci"
(cd web && npm ci --no-audit --no-fund --loglevel=error)

step "licences: Go modules (production and dev builds), npm runtime deps, published LICENSE; THIRD_PARTY_NOTICES up to date"
(cd scripts/licenses && test -z "$(gofmt -l .)" && go vet ./... && go test -count=1 ./...)
go -C scripts/licenses run . -check

step "web: typecheck (tsc --noEmit, strict)"
(cd web && npm run typecheck --silent)

step "web: public API report (packages/*/api-report.md match the sources)"
(cd web && node scripts/api-report.mjs --check)

step "web: unit and component tests (vitest)"
(cd web && npx vitest run)

step "Solana dev network (LiteSVM behind our JSON-RPC server, web/packages/solana-devnet)"
(cd web/packages/solana-devnet && node --test test/)

step "web: build (core, react, demo)"
bash scripts/build-web.sh

step "gofmt and go vet"
unformatted=$(gofmt -l cmd internal pkg api deploy contracts data bench)
if [ -n "$unformatted" ]; then echo "gofmt needed: $unformatted"; exit 1; fi
go vet ./...

step "go test -race"
go test -race -count=1 ./...

step "relay under hostile clients: memory bound (without -race, which multiplies memory)"
go test -count=1 -run 'TestServer_HostileMemory' -v ./internal/relay/ | grep -E '^(=== RUN|--- |\s+attack_test|ok|FAIL|PASS)' || { echo "hostile-memory test failed"; exit 1; }

step "browser tests (Chromium, real latchd dev)"
bash scripts/test-e2e.sh

step "Next.js example: offline build, server render, hydration (next start, Chromium)"
bash scripts/test-next.sh

step "container image (podman, no network): build it, check it, run latchd version taken from it"
command -v podman >/dev/null || { apt-get update -qq && apt-get install -y -qq podman; }
bash scripts/check-image.sh
