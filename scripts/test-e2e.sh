#!/usr/bin/env bash
# Browser tests: Debian's Chromium (installed if missing), bin/latchd (built if missing), then the node:test
# suites in web/e2e against a real `latchd dev`. Exits non-zero when a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-chromium.sh

# Always (re)build: go build is incremental, and a stale binary would test old code.
go build -o bin/latchd ./cmd/latchd

if [ ! -d web/node_modules/playwright-core ] || [ ! -d web/node_modules/viem ]; then
  echo "test-e2e: web/node_modules lacks playwright-core or viem; run npm ci in web/" >&2
  exit 1
fi

cd web
npm run test --silent -w @latchkit/e2e
