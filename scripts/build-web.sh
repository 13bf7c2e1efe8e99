#!/usr/bin/env bash
# Builds @latchkit/core, @latchkit/react, the embedded-wallet frame (into
# internal/frameapp/dist, which latchd embeds), the demo dapp, and
# @latchkit/appkit-compat with its demo (apps/appkit-demo), each only
# when something it is built from changed since its last build (or its output
# is gone); --force builds them all; names (e.g. @latchkit/frame) build only
# those. Installs the npm packages first when node_modules is missing or
# older than the lockfile. Says what it does.
#
# A package is up to date when its stamp (node_modules/.cache/latch-build/)
# is newer than every input: its own sources and configuration (tests aside),
# the lockfile, web/scripts/, and the inputs of the packages it depends on.
set -euo pipefail
cd "$(dirname "$0")/../web"

force=false
only=()
for arg in "$@"; do
  case "$arg" in
    --force) force=true ;;
    @latchkit/core | @latchkit/react | @latchkit/frame | @latchkit/demo | @latchkit/appkit-compat | @latchkit/appkit-demo) only+=("$arg") ;;
    *) echo "usage: scripts/build-web.sh [--force] [@latchkit/core|react|frame|demo|appkit-compat|appkit-demo]..." >&2; exit 2 ;;
  esac
done

source ../scripts/lib/npm.sh
npm_install .

stamps=node_modules/.cache/latch-build
mkdir -p "$stamps"

# build NAME DIR OUTPUT DEPENDENCY_DIRS...: builds workspace NAME (in DIR)
# unless OUTPUT exists and it is up to date. Its inputs are every file under
# DIR and the DEPENDENCY_DIRS except node_modules, build output and tests.
build() {
  local name=$1 dir=$2 output=$3
  shift 3
  if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $name "* ]]; then
    return
  fi
  local stamp="$stamps/${name//\//_}.stamp" newer=""
  if ! $force && [ -f "$stamp" ] && [ -e "$output" ]; then
    newer=$(find "$dir" "$@" package.json package-lock.json scripts \
      \( -name node_modules -o -name dist -o -name .next \) -prune -o \
      -type f ! -name '*.test.ts' ! -name '*.test.tsx' -newer "$stamp" -print -quit)
    if [ -z "$newer" ]; then
      echo "web: $name is up to date"
      return
    fi
  fi
  echo "web: building $name${newer:+ ($newer changed)}..."
  local start=$SECONDS
  # The stamp is taken before the build: a file edited during it is seen next time.
  touch "$stamp.new"
  npm run build --silent -w "$name"
  mv "$stamp.new" "$stamp"
  echo "web: built $name in $((SECONDS - start)) s"
}

# The frame first: latchd embeds it, so the packages that embed it wait for it (make dev compiles the rest meanwhile).
# It imports core's sources (the page/frame protocol), not its build.
build @latchkit/frame packages/frame ../internal/frameapp/dist/index.html packages/core
build @latchkit/core packages/core packages/core/dist
build @latchkit/react packages/react packages/react/dist packages/core
build @latchkit/demo apps/demo apps/demo/dist packages/core packages/react
# AppKit's React API over Latch (docs/appkit-compat.md), and the demo written against it (served like the demo).
build @latchkit/appkit-compat packages/appkit-compat packages/appkit-compat/dist packages/core packages/react
build @latchkit/appkit-demo apps/appkit-demo apps/appkit-demo/dist packages/core packages/react packages/appkit-compat
