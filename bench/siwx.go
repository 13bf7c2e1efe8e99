package main

import (
	"fmt"
	"log"
	"strings"
)

// siwxRuns is how many sign-ins each internal/siwx benchmark times.
const siwxRuns = 3000

// siwxWhat says what each internal/siwx benchmark times.
var siwxWhat = map[string]string{
	"NonceVerify_EOA": "nonce + verify, EOA signature (goal p99 < 2 ms)",
	"SignIn_EOA":      "nonce + sign-in with its session stored (SQLite), EOA",
	"SignIn_ERC1271":  "nonce + sign-in with its session stored (SQLite), ERC-1271 wallet on a dev chain",
}

// benchSIWX reports Sign-in with X on the server by running internal/siwx's
// benchmarks, which time each sign-in and report its p50 and p99.
func benchSIWX(report *strings.Builder) {
	report.WriteString("## Sign-in with X on the server\n\n| what | runs | p50 | p99 |\n|---|---|---|---|\n")
	for _, r := range runGoBench("./internal/siwx", "^Benchmark(NonceVerify|SignIn)_", siwxRuns) {
		what := siwxWhat[r.Name]
		if what == "" {
			what = r.Name
		}
		log.Printf("siwx %s: p50 %s ms, p99 %s ms", r.Name, r.P50, r.P99)
		fmt.Fprintf(report, "| %s | %d | %s ms | %s ms |\n", what, siwxRuns, r.P50, r.P99)
	}
	report.WriteString("\n")
}
