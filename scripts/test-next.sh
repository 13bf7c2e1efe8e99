#!/usr/bin/env bash
# The Next.js App Router example (web/apps/next): builds the widget packages and the app (`next build`, offline:
# telemetry off, no remote fonts), then serves it with `next start` against a real `latchd dev` and checks the
# server's HTML and Chromium's hydration (web/e2e/next/).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-chromium.sh

# latchd dev needs the dev build, bin/latchd-dev (dev chains linked in), which web/e2e/lib/latchd.mjs runs.
# Always rebuilt: go build is incremental, and a stale binary would test old code.
bash scripts/build-latchd.sh dev

# The app imports the packages' built files (dist), as an app from npm would.
bash scripts/build-web.sh

# next build must fetch nothing (no remote fonts, no telemetry, its compiler from the installed platform
# package): where this user may make a network namespace, the build runs in one with no network at all.
# It is skipped when its build output is there and its inputs (the app, the packages' builds it imports, the
# lockfile) are those of the last offline build that passed (scripts/lib/cache.sh; LATCH_NO_STAMPS=1 rebuilds).
source scripts/lib/cache.sh
export NEXT_TELEMETRY_DISABLED=1
inputs=$(inputs_hash web/apps/next/app web/apps/next/next.config.mjs web/apps/next/package.json web/apps/next/tsconfig.json \
  web/packages/core/dist web/packages/react/dist web/package-lock.json)
if [ -f web/apps/next/.next/BUILD_ID ] && [ "$(cat web/apps/next/.next/latch-inputs 2>/dev/null)" = "$inputs" ] && [ "${LATCH_NO_STAMPS:-}" != 1 ]; then
  echo "test-next: the app's build is up to date (inputs $inputs)"
elif unshare -rn true 2>/dev/null; then
  (cd web/apps/next && unshare -rn npm run build --silent)
  echo "$inputs" >web/apps/next/.next/latch-inputs
else
  echo "test-next: unshare -rn is not allowed here; building with the network (not checked offline)"
  (cd web/apps/next && npm run build --silent)
fi

cd web
node --test --test-concurrency=1 --test-reporter=spec e2e/next/
