package main

import (
	"fmt"
	"log"
	"os/exec"
	"regexp"
	"strings"
)

// Runs of the internal/bundler benchmarks: inclusion and estimate are timed
// per operation; the throughput benchmark is one run of 200 operations.
const (
	bundlerInclusionRuns = 100
	bundlerEstimateRuns  = 1000
	bundlerPaymasterRuns = 1000
)

// benchBundler reports the ERC-4337 bundler by running internal/bundler's
// benchmarks against an in-process dev chain (which seals a block per
// transaction): a sponsored first operation from eth_sendUserOperation's
// answer to its receipt, eth_estimateUserOperationGas, pm_getPaymasterData,
// and 200 operations from 50 accounts, sequential per account and pipelined.
func benchBundler(report *strings.Builder) {
	report.WriteString("## ERC-4337 bundler (internal/bundler, dev chain)\n\n| what | runs | p50 | p99 |\n|---|---|---|---|\n")
	for _, r := range runGoBench("./internal/bundler", "^BenchmarkInclusion$", bundlerInclusionRuns) {
		log.Printf("bundler inclusion: p50 %s ms, p99 %s ms", r.P50, r.P99)
		fmt.Fprintf(report, "| sponsored first operation, accepted → receipt (goal < 1.5 s) | %d | %s ms | %s ms |\n", bundlerInclusionRuns, r.P50, r.P99)
	}
	for _, r := range runGoBench("./internal/bundler", "^BenchmarkEstimate$", bundlerEstimateRuns) {
		log.Printf("bundler estimate: p50 %s ms, p99 %s ms", r.P50, r.P99)
		fmt.Fprintf(report, "| eth_estimateUserOperationGas, deployment and a call (goal p99 < 20 ms) | %d | %s ms | %s ms |\n", bundlerEstimateRuns, r.P50, r.P99)
	}
	for _, r := range runGoBench("./internal/bundler", "^BenchmarkPaymasterData$", bundlerPaymasterRuns) {
		log.Printf("paymaster data: p50 %s ms, p99 %s ms", r.P50, r.P99)
		fmt.Fprintf(report, "| pm_getPaymasterData, a new account's first operation (bounds, budgets reserved, signed) | %d | %s ms | %s ms |\n", bundlerPaymasterRuns, r.P50, r.P99)
	}
	// Two throughput runs of 200 operations from 50 accounts. The first
	// keeps the meaning of the figure reported before (an account's next
	// operation sent once its last is included); the second sends an
	// account's four at once, which several pending operations per sender
	// allow.
	for _, run := range []struct{ bench, what string }{
		{"BenchmarkThroughput", "each account's next sent once its last is included"},
		{"BenchmarkThroughputPipelined", "each account's four sent at once, before any is included"},
	} {
		m := bundlerThroughput(run.bench)
		log.Printf("bundler throughput (%s): %s ops/s, p50 %s ms, p99 %s ms", run.bench, m[1], m[2], m[3])
		fmt.Fprintf(report, "\n200 sponsored operations from 50 accounts (%s): %s operations/s; accepted → receipt p50 %s ms, p99 %s ms.\n", run.what, m[1], m[2], m[3])
	}
	report.WriteString("\n")
}

// bundlerThroughput runs one throughput benchmark once and returns its
// ops/s, p50-ms and p99-ms (submatches 1 to 3).
func bundlerThroughput(bench string) [][]byte {
	out, err := exec.Command("go", "test", "-run", "^$", "-bench", "^"+bench+"$", "-benchtime", "1x", "-count", "1", "./internal/bundler").CombinedOutput()
	if err != nil {
		log.Fatalf("bundler throughput: %v\n%s", err, out)
	}
	re := regexp.MustCompile(`(?m)^` + bench + `(?:-\d+)?\s+\d+\s.*?([\d.]+) ops/s\s+([\d.]+) p50-ms\s+([\d.]+) p99-ms`)
	m := re.FindSubmatch(out)
	if m == nil {
		log.Fatalf("bundler throughput: no result in:\n%s", out)
	}
	return m
}
