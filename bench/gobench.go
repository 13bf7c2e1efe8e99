package main

import (
	"fmt"
	"log"
	"os/exec"
	"regexp"
)

// goBenchResult is one benchmark's p50 and p99 (in ms, as the benchmark
// reported them with b.ReportMetric(…, "p50-ms") and "p99-ms").
type goBenchResult struct {
	Name     string
	P50, P99 string
}

var goBenchLine = regexp.MustCompile(`(?m)^Benchmark(\S+?)(?:-\d+)?\s+\d+\s.*?([\d.]+) p50-ms\s+([\d.]+) p99-ms`)

// runGoBench runs the Go benchmarks of pkg matching pattern, n iterations
// each, and returns their percentiles in the order they ran.
func runGoBench(pkg, pattern string, n int) []goBenchResult {
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", pattern, "-benchtime", fmt.Sprintf("%dx", n), "-count", "1", pkg)
	out, err := cmd.CombinedOutput()
	if err != nil {
		log.Fatalf("%s benchmarks: %v\n%s", pkg, err, out)
	}
	var results []goBenchResult
	for _, m := range goBenchLine.FindAllSubmatch(out, -1) {
		results = append(results, goBenchResult{Name: string(m[1]), P50: string(m[2]), P99: string(m[3])})
	}
	if len(results) == 0 {
		log.Fatalf("%s benchmarks: no p50/p99 in their output:\n%s", pkg, out)
	}
	return results
}
