#!/usr/bin/env bash
# Builds @latchkit/core, @latchkit/react and the demo dapp. Installs the npm
# packages first when node_modules is missing or older than the lockfile.
set -euo pipefail
cd "$(dirname "$0")/../web"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
npm run build --silent
