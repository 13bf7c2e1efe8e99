#!/usr/bin/env bash
# Builds the container image (Containerfile) from the production binary with
# no network, then checks it without running a container: its configuration
# (non-root user, ports, healthcheck, entrypoint) and the binary taken out of
# the image, which must run and be the static production build.
#   scripts/check-image.sh [TAG]    default tag: latch/latchd:latest (deploy/compose.yaml's)
#   scripts/check-image.sh --stage  only stage the build context bin/image/ (for another
#                                   builder: docker build -f Containerfile .)
set -euo pipefail
cd "$(dirname "$0")/.."
stage_only=false
case "${1:-}" in
  --stage) stage_only=true ;;
  -*) echo "usage: scripts/check-image.sh [TAG | --stage]" >&2; exit 2 ;;
esac
tag=${1:-latch/latchd:latest}

if ! $stage_only && ! command -v podman >/dev/null; then
  echo "check-image: podman is not installed (Debian: apt-get install podman)" >&2
  exit 1
fi

bash scripts/build-web.sh @latchkit/frame # latchd embeds it
bash scripts/build-latchd.sh prod

ctx=bin/image
rm -rf "$ctx"
mkdir -p "$ctx/data"
cp bin/latchd "$ctx/latchd"
ca=/etc/ssl/certs/ca-certificates.crt
[ -f "$ca" ] || { echo "check-image: no CA bundle at $ca (Debian: apt-get install ca-certificates)" >&2; exit 1; }
cp "$ca" "$ctx/ca-certificates.crt"
if $stage_only; then
  echo "image: build context staged in $ctx/"
  exit 0
fi

echo "image: building $tag (FROM scratch, no network)..."
# Docker format: the OCI image format has no HEALTHCHECK.
podman build --quiet --network=none --pull=never --format docker -f Containerfile -t "$tag" . >/dev/null

fail() { echo "check-image: $*" >&2; exit 1; }
inspect() { podman image inspect --format "$1" "$tag"; }
[ "$(inspect '{{.Config.User}}')" = "65532:65532" ] || fail "user is $(inspect '{{.Config.User}}'), want 65532:65532"
ports=$(inspect '{{range $p, $_ := .Config.ExposedPorts}}{{$p}} {{end}}')
for p in 8080/tcp 8081/tcp 8082/tcp; do [[ " $ports" == *" $p "* ]] || fail "port $p not exposed ($ports)"; done
health=$(inspect '{{json .Config.Healthcheck.Test}}')
[ "$health" = '["CMD","/latchd","healthcheck"]' ] || fail "healthcheck is $health"
[ "$(inspect '{{json .Config.Entrypoint}}')" = '["/latchd"]' ] || fail "entrypoint is $(inspect '{{json .Config.Entrypoint}}')"

# Take the binary out of the image: save it as an archive and unpack its layers.
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
podman image save --quiet --format docker-archive -o "$out/image.tar" "$tag"
mkdir "$out/image" "$out/root"
tar -xf "$out/image.tar" -C "$out/image"
for layer in $(sed -n 's/.*"Layers":\[\([^]]*\)\].*/\1/p' "$out/image/manifest.json" | tr -d '"' | tr ',' ' '); do
  tar -xf "$out/image/$layer" -C "$out/root" --same-owner
done
bin="$out/root/latchd"
[ -x "$bin" ] || fail "no executable /latchd in the image"
[ -f "$out/root/etc/ssl/certs/ca-certificates.crt" ] || fail "no CA bundle in the image"
cmp -s "$bin" bin/latchd || fail "the image's /latchd differs from bin/latchd"

version=$("$bin" version)
echo "$version" | sed 's/^/image: /'
grep -q "dev chains:  no (production build)" <<<"$version" || fail "the image's latchd is not the production build"
if "$bin" dev >/dev/null 2>&1; then fail "the image's latchd runs latchd dev"; fi
${GO:-go} version -m "$bin" | grep -q "CGO_ENABLED=0" || fail "the image's latchd was built with cgo"
[ "$(stat -c %u:%g "$out/root/data")" = "65532:65532" ] || fail "/data is owned by $(stat -c %u:%g "$out/root/data"), want 65532:65532"
echo "image: $tag ok ($(podman image inspect --format '{{.Size}}' "$tag") bytes; user 65532, ports 8080-8082, healthcheck latchd healthcheck)"
