# Thin entry points; the logic lives in scripts/ and Go code.
.PHONY: dev test bench build clean

GO ?= go

build:
	$(GO) build -o bin/latchd ./cmd/latchd

dev: build
	./bin/latchd dev --log-format text --log-level warn

test:
	bash scripts/test.sh

bench: build
	$(GO) run ./bench -latchd bin/latchd -out bench/results.md

clean:
	rm -rf bin .latch
