# Thin entry points; the logic lives in scripts/ and Go/TS code.
.PHONY: dev test test-e2e bench build web clean

GO ?= go

build:
	$(GO) build -o bin/latchd ./cmd/latchd

# The widget packages and the demo dapp (npm ci only when dependencies are missing or stale).
web:
	bash scripts/build-web.sh

dev: build web
	./bin/latchd dev --log-format text --log-level warn --demo-dir web/apps/demo/dist

test:
	bash scripts/test.sh

test-e2e: build web
	bash scripts/test-e2e.sh

bench: build web
	$(GO) run ./bench -latchd bin/latchd -out bench/results.md
	cd web && node bench/measure.mjs >> ../bench/results.md && node bench/click-to-connect.mjs >> ../bench/results.md

clean:
	rm -rf bin .latch web/packages/*/dist web/apps/demo/dist
