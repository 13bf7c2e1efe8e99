# Thin entry points; the logic lives in scripts/ and Go/TS code.
.PHONY: dev frame build build-dev test test-e2e test-flaky screenshots bench web image notices clean

GO ?= go
export GO

# The embedded-wallet frame, which latchd embeds (web/packages/frame ->
# internal/frameapp/dist), rebuilt when its sources changed.
frame:
	@bash scripts/build-web.sh @latchkit/frame

# bin/latchd: the production build (static, CGO_ENABLED=0, no dev chains,
# version/commit/date stamped by the linker; VERSION=… overrides the version).
build: frame
	@bash scripts/build-latchd.sh prod

# bin/latchd-dev: the dev build (-tags devchain), whose `latchd dev` runs
# in-process go-ethereum dev chains. Its first build compiles go-ethereum.
build-dev: frame
	@bash scripts/build-latchd.sh dev

# The widget packages, the frame and the demo dapp, each rebuilt only when its
# sources changed (npm ci only when dependencies are missing or stale).
web:
	@bash scripts/build-web.sh

# Builds what latchd dev needs (Go's compile beside npm and the web build) and starts it: scripts/dev.sh.
dev:
	@bash scripts/dev.sh

test:
	bash scripts/test.sh

test-e2e: web build-dev
	bash scripts/test-e2e.sh

# Reruns the suites under CPU load and names every test that ever failed (scripts/test-flaky.mjs says how to
# set the runs: FLAKY_VITEST_RUNS=20, FLAKY_E2E_RUNS=3, FLAKY_GO_RUNS=2, FLAKY_LOAD=cores, FLAKY_SUITES).
test-flaky: web build-dev
	bash scripts/install-chromium.sh
	node scripts/test-flaky.mjs

# Browser tests that rewrite the committed screenshots (web/e2e/screenshots/);
# ordinary runs write to the ignored web/e2e/screenshots-out/.
screenshots: web build-dev
	bash scripts/screenshots.sh

bench: web build-dev
	$(GO) run ./bench -latchd bin/latchd-dev -out bench/results.md
	cd web && node bench/measure.mjs >> ../bench/results.md && node bench/click-to-connect.mjs >> ../bench/results.md
	cd web && node bench/frame-ready.mjs >> ../bench/results.md
	cd web && npm run -s size -w @latchkit/frame -- --markdown >> ../bench/results.md && npm run -s bench -w @latchkit/frame -- --markdown >> ../bench/results.md

# The container image (Containerfile: FROM scratch, the static production
# binary), built with no network; scripts/check-image.sh then checks its
# configuration and runs the binary taken out of it. IMAGE=name:tag to name it.
image:
	bash scripts/check-image.sh $(IMAGE)

# THIRD_PARTY_NOTICES: the licences of what bin/latchd links and embeds and of
# what the widget packages bring into an app (scripts/licenses, which also
# fails on a licence off its allowlist; make test runs it with -check).
notices:
	$(GO) -C scripts/licenses run . -write

clean:
	rm -rf bin .latch web/packages/*/dist web/apps/demo/dist web/apps/appkit-demo/dist web/node_modules/.cache/latch-build web/apps/next/.next web/e2e/screenshots-out
