package main

import (
	"fmt"
	"log"
	"strings"
)

// swapRuns is how many quotes each internal/swap benchmark times.
const swapRuns = 3000

// swapWhat says what each internal/swap benchmark times.
var swapWhat = map[string]string{
	"Quote_Warm": "quote 100 USDC → WETH, router, pairs and reserves cached (goal p99 < 5 ms)",
	"Quote_Cold": "quote 100 USDC → WETH, nothing cached: router, factory and reserves read over the dev chain's JSON-RPC",
}

// benchSwap reports swap quotes on the server by running internal/swap's
// benchmarks, which time GET /v1/convert/quotes in process against a dev
// chain and report its p50 and p99.
func benchSwap(report *strings.Builder) {
	report.WriteString("## Swap quotes on the server\n\n| what | runs | p50 | p99 |\n|---|---|---|---|\n")
	for _, r := range runGoBench("./internal/swap", "^BenchmarkQuote_", swapRuns) {
		what := swapWhat[r.Name]
		if what == "" {
			what = r.Name
		}
		log.Printf("swap %s: p50 %s ms, p99 %s ms", r.Name, r.P50, r.P99)
		fmt.Fprintf(report, "| %s | %d | %s ms | %s ms |\n", what, swapRuns, r.P50, r.P99)
	}
	report.WriteString("\n")
}
