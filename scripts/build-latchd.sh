#!/usr/bin/env bash
# Builds latchd and says what it is doing (the dev build's first compile of
# go-ethereum takes minutes and prints nothing of its own).
#   scripts/build-latchd.sh prod          bin/latchd: production, no dev chains,
#                                         version/commit/date set by the linker
#   scripts/build-latchd.sh dev           bin/latchd-dev: the dev build (-tags devchain),
#                                         whose latchd dev runs in-process go-ethereum dev chains
#   scripts/build-latchd.sh dev --deps    compiles what the dev build links but the packages
#                                         that embed the frame (make dev runs it while the
#                                         frame is still building)
# Both builds are static (CGO_ENABLED=0) and -trimpath: the same flags as go vet
# and the production-binary test in make test, so one compile of a package
# serves them all (go test -race needs cgo and compiles apart anyway).
# VERSION, COMMIT and BUILD_DATE (production only) override what the linker stamps.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
app=github.com/latchkit/latch/internal/app
export CGO_ENABLED=0

version=${VERSION:-$(git describe --tags 2>/dev/null || echo 0.1.0-dev)}
commit=${COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
stamps="-X $app.version=$version -X $app.commit=$commit"
case "${1:-}" in
  prod)
    out=bin/latchd tags="" what="production: static, no dev chains" slow=""
    date=${BUILD_DATE:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}
    flags=(-trimpath -ldflags "$stamps -X $app.buildDate=$date")
    ;;
  dev)
    # No build date: while the commit stays the same, an unchanged tree relinks nothing.
    out=bin/latchd-dev tags=devchain what="dev build: in-process go-ethereum dev chains" slow=" (go-ethereum's node)"
    flags=(-trimpath -ldflags "$stamps")
    ;;
  *) echo "usage: scripts/build-latchd.sh prod|dev [--deps]" >&2; exit 2 ;;
esac
deps_only=false
case "${2:-}" in
  "") ;;
  --deps) deps_only=true ;;
  *) echo "usage: scripts/build-latchd.sh prod|dev [--deps]" >&2; exit 2 ;;
esac

# compile TOTAL ARGS...: go build -v ARGS, printing a count now and then
# (-v names each package as it is compiled, a bare import path per line), so a
# long build is seen to move; anything else (compiler errors) is printed as it comes.
compile() {
  local total=$1
  shift
  $GO build -v "$@" 2>&1 |
    awk -v total="$total" '/^[A-Za-z0-9._~\/-]+$/ { n++; if (n % 50 == 0) { printf "go:   %d/%d packages compiled\n", n, total; fflush() }; next } { print; fflush() }'
}

start=$SECONDS
if $deps_only; then
  # Every stale package but internal/frameapp (which embeds the frame's build) and those importing it; go list
  # also downloads the modules the build needs.
  frameapp=github.com/latchkit/latch/internal/frameapp
  mapfile -t deps < <($GO list -deps -tags "$tags" "${flags[@]}" \
    -f '{{if .Stale}}{{.ImportPath}}{{range .Deps}} {{.}}{{end}}{{end}}' ./cmd/latchd |
    awk -v f="$frameapp" '$1 != f { for (i = 2; i <= NF; i++) if ($i == f) next; print $1 }')
  if [ "${#deps[@]}" -gt 0 ]; then
    echo "go: compiling the ${#deps[@]} packages $out links that do not embed the frame$slow; a first build takes a few minutes..."
    compile "${#deps[@]}" -tags "$tags" "${flags[@]}" "${deps[@]}"
  fi
  echo "go: $out's dependencies compiled ($((SECONDS - start)) s)"
  exit 0
fi

# How many packages need compiling (go-ethereum's are most of the dev build's).
stale=$($GO list -deps -tags "$tags" "${flags[@]}" -f '{{if .Stale}}{{.ImportPath}}{{end}}' ./cmd/latchd | grep -c . || true)
if [ "$stale" -gt 50 ]; then
  echo "go: building $out ($what): compiling $stale packages; a first build takes a few minutes$slow..."
  compile "$stale" -tags "$tags" "${flags[@]}" -o "$out" ./cmd/latchd
elif [ "$stale" -gt 1 ]; then
  echo "go: building $out ($what; $stale packages to compile)..."
  $GO build -tags "$tags" "${flags[@]}" -o "$out" ./cmd/latchd
else # only latchd's main package, which is never installed: a link at most
  echo "go: linking $out ($what)..."
  $GO build -tags "$tags" "${flags[@]}" -o "$out" ./cmd/latchd
fi
echo "go: $out ready ($(( $(stat -c %s "$out") / 1048576 )) MiB, $((SECONDS - start)) s)"
