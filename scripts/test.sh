#!/usr/bin/env bash
# make test: every suite. Installs what it needs (npm packages, Debian's chromium and podman), starts the local
# Postgres and Redis when they are installed, then runs the suites in three lanes side by side, Go, web and the
# browser tests (which mostly wait, so they share the cores well), whose output lines carry [go], [web] or
# [browser]. It ends with a table of each step's wall and CPU time.
#   LATCH_TEST_SERIAL=1   one lane after the other (output in order, for reading a failure)
#   LATCH_NO_STAMPS=1     ignore the stamps of steps whose inputs passed before (scripts/lib/cache.sh)
#   LATCH_E2E_WORKERS=N   browser-test workers (web/e2e/run.mjs; default: by the machine's cores)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/steps.sh
source scripts/lib/cache.sh
source scripts/lib/npm.sh
trap 'rc=$?; step_table; rm -rf "$steps_dir"; exit $rc' EXIT

services() {
  eval "$(bash scripts/services.sh)"
  echo "postgres: ${LATCH_TEST_POSTGRES:-absent (SQLite only)}"
  echo "redis:    ${LATCH_TEST_REDIS:-absent (memory only)}"
}
# services exports LATCH_TEST_* for the lanes: it runs here, not as a step (a step is a subshell).
printf '\n== services\n'
services

# Debian packages the later steps need, installed while the rest runs (apt is mostly download and unpack).
debian_packages() {
  bash scripts/install-chromium.sh
  command -v podman >/dev/null || { apt-get update -qq && apt-get install -y -qq podman >/dev/null; }
  echo "chromium and podman are installed"
}
debian_done=$steps_dir/debian.done debian_ended=$steps_dir/debian.ended
(
  step "install: chromium, a Japanese font, podman (Debian)" debian_packages >"$steps_dir/debian.log" 2>&1 &&
    touch "$debian_done"
  touch "$debian_ended"
) &

step "seed data" node data/validate_data.mjs
step "licences and pinned versions (package-lock.json)" node scripts/check-licenses.mjs
step "install: web npm packages (npm ci when package-lock.json changed)" npm_install web

contracts_check() {
  local hash
  hash=$(inputs_hash contracts/src contracts/artifacts contracts/compile.mjs contracts/package-lock.json)
  if stamp_ok contracts "$hash"; then
    echo "contracts: unchanged since they last matched (inputs $hash)"
    return 0
  fi
  npm_install contracts
  (cd contracts && node compile.mjs --check)
  stamp_set contracts "$hash"
}

# Stamped by everything the check reads: the Go modules and sources linked (GPL headers), Go's own licence (its
# version), the npm lock and manifests, the published LICENSE files, the icons, the tool and the notices.
licences_go() {
  local hash
  hash=$( (go version; inputs_hash go.mod go.sum cmd internal pkg api data/icons web/package-lock.json \
    web/package.json web/packages LICENSE THIRD_PARTY_NOTICES scripts/licenses) | sha256sum | cut -c1-16)
  if stamp_ok licences "$hash"; then
    echo "licences: unchanged since they last passed (inputs $hash)"
    return 0
  fi
  (cd scripts/licenses && test -z "$(gofmt -l .)" && go vet ./... && go test -count=1 ./...)
  go -C scripts/licenses run . -check
  stamp_set licences "$hash"
}

vet() {
  local unformatted
  unformatted=$(gofmt -l cmd internal pkg api deploy contracts data bench)
  if [ -n "$unformatted" ]; then echo "gofmt needed: $unformatted"; return 1; fi
  # The flags of scripts/build-latchd.sh, so vet and the builds share one compile of each package.
  CGO_ENABLED=0 go vet -trimpath ./...
}

hostile_memory() {
  CGO_ENABLED=0 go test -trimpath -vet=off -count=1 -run 'TestServer_HostileMemory' -v ./internal/relay/ | grep -E '^(=== RUN|--- |\s+attack_test|ok|FAIL|PASS)'
}

latchd_ready=$steps_dir/latchd-dev.ready
web_built=$steps_dir/web.built
go_lane() {
  step "contracts: committed artifacts match the Solidity sources" contracts_check
  step "licences: Go modules (production and dev builds), npm runtime deps, published LICENSE; THIRD_PARTY_NOTICES up to date" licences_go
  step "gofmt and go vet" vet
  # Early, so the browser lane can start while Go's tests run.
  step "build bin/latchd-dev (latchd dev for the browser tests)" bash scripts/build-latchd.sh dev
  touch "$latchd_ready"
  # -vet=off: the step "gofmt and go vet" above ran every vet check, go test's few among them, on these same
  # packages and test files (the race-tagged ones aside: internal/relay/race_on_test.go, a constant); go test's
  # own vet would analyse each package again under -race's build flags.
  step "go test -race" go test -race -vet=off -count=1 ./...
  step "relay under hostile clients: memory bound (without -race, which multiplies memory)" hostile_memory
  step "container image (podman, no network): build it, check it, run latchd version taken from it" image_check
}

# wait_for FILE WHAT LANE: waits until FILE exists (a step of LANE passed), or fails once that lane has ended.
wait_for() {
  until [ -e "$1" ]; do
    if [ -e "$steps_dir/$3.ended" ] && [ ! -e "$1" ]; then echo "$2 did not pass"; return 1; fi
    sleep 0.5
  done
}

# debian_wait: waits for the install above (from any lane: a lane is not its parent, so `wait` cannot), prints its
# output and fails if it failed.
debian_wait() {
  until [ -e "$debian_ended" ]; do sleep 0.5; done
  cat "$steps_dir/debian.log"
  [ -e "$debian_done" ]
}

image_check() {
  debian_wait
  # The production binary of this tree, with the commit's date as its build date, so an unchanged tree gives the
  # same bytes and its image's check, which passed before, need not run again.
  BUILD_DATE=$(TZ=UTC0 git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ)
  export BUILD_DATE
  bash scripts/build-web.sh @latchkit/frame
  bash scripts/build-latchd.sh prod
  local hash
  hash=$(inputs_hash bin/latchd Containerfile scripts/check-image.sh)
  if stamp_ok image "$hash"; then
    echo "image: bin/latchd, Containerfile and the check are those of a passing check (inputs $hash)"
    return 0
  fi
  bash scripts/check-image.sh
  stamp_set image "$hash"
}

web_lane() {
  # First, so the browser lane can start while the checks below run.
  step "web: build (core, react, frame, demo, appkit-compat, appkit-demo)" bash scripts/build-web.sh
  touch "$web_built"
  step "web: typecheck (tsc --noEmit, strict: one program over every package, then core alone)" bash -c 'cd web && npm run typecheck --silent'
  step "web: public API report (packages/*/api-report.md match the sources)" bash -c 'cd web && node scripts/api-report.mjs --check'
  step "web: unit and component tests (vitest)" bash -c 'cd web && npx vitest run'
  step "Solana dev network (LiteSVM behind our JSON-RPC server, web/packages/solana-devnet)" bash -c 'cd web/packages/solana-devnet && node --test test/'
  step "Next.js example: offline build, server render, hydration (next start, Chromium)" next_example
}

next_example() {
  debian_wait
  wait_for "$latchd_ready" "the latchd-dev build" go
  bash scripts/test-next.sh
}

e2e() {
  debian_wait
  wait_for "$web_built" "the web build" web
  wait_for "$latchd_ready" "the latchd-dev build" go
  bash scripts/test-e2e.sh
}

browser_lane() {
  step "browser tests (Chromium, real latchd dev)" e2e
}

# A lane says when it has ended, passed or not, so that another lane's wait for one of its steps never hangs.
ended() {
  trap "touch '$steps_dir/$1.ended'" EXIT
  "${1}_lane"
}
go_ended() { ended go; }
web_ended() { ended web; }

if [ "${LATCH_TEST_SERIAL:-}" = 1 ]; then
  (go_ended)
  (web_ended)
  browser_lane
else
  lane go go_ended
  lane web web_ended
  lane browser browser_lane
  wait_lanes
fi
