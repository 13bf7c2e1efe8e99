#!/usr/bin/env bash
# make dev: builds what `latchd dev` needs, then starts it with its dev networks and the demo page.
# On a fresh clone most of the time is Go compiling go-ethereum's node for the dev build; it runs while npm
# installs the packages and the frame, the widget and the demo build. Only the three packages that embed the
# frame (internal/frameapp and its importers) wait for it. Lines carry [go] or [web] while both run. Arguments
# go to `latchd dev`.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS

set -o pipefail
(bash scripts/build-latchd.sh dev --deps 2>&1 | sed -u 's/^/[go] /') &
go_pid=$!
# The frame first: the packages that embed it wait for it. appkit-compat and its demo are the browser tests' (make test).
if ! bash scripts/build-web.sh @latchkit/frame @latchkit/core @latchkit/react @latchkit/demo 2>&1 | sed -u 's/^/[web] /'; then
  kill "$go_pid" 2>/dev/null || true
  exit 1
fi
wait "$go_pid"
bash scripts/build-latchd.sh dev
echo "make dev: built in $((SECONDS - start)) s"

echo "starting latchd dev (bin/latchd-dev; LATCH_ADDR=127.0.0.1:PORT picks another API port)..."
exec ./bin/latchd-dev dev --log-format text --log-level warn --demo-dir web/apps/demo/dist "$@"
