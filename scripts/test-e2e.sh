#!/usr/bin/env bash
# Browser tests: Debian's Chromium (installed if missing), latchd's dev build, then the node:test suites in
# web/e2e against a real `latchd dev`. Exits non-zero when a test fails. Screenshots go to the ignored
# web/e2e/screenshots-out/; scripts/screenshots.sh (make screenshots) refreshes the committed ones.
#   scripts/test-e2e.sh [--workers N] [--runs K] [--record] [FILE...]   (see web/e2e/run.mjs)
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-chromium.sh

# latchd dev needs the dev build, bin/latchd-dev (dev chains linked in), which web/e2e/lib/latchd.mjs runs.
# Always rebuilt: go build is incremental, and a stale binary would test old code.
bash scripts/build-latchd.sh dev

if [ ! -d web/node_modules/playwright-core ] || [ ! -d web/node_modules/viem ]; then
  echo "test-e2e: web/node_modules lacks playwright-core or viem; run npm ci in web/" >&2
  exit 1
fi

# Files run in parallel workers (web/e2e/run.mjs: LATCH_E2E_WORKERS, --runs, --record); arguments pass through.
cd web
node e2e/run.mjs "$@"
