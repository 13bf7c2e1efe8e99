package main

import (
	"fmt"
	"log"
	"strings"
)

// authRoundTrips is how many e-mail logins BenchmarkService_StartVerify times.
const authRoundTrips = 2000

// benchAuth reports the e-mail login round trip on the server (start → the
// code read from the dev outbox → verify; SMTP excluded) by running the Go
// benchmark internal/auth BenchmarkService_StartVerify, which times each
// round trip and reports its p50 and p99.
func benchAuth(report *strings.Builder) {
	r := runGoBench("./internal/auth", "^BenchmarkService_StartVerify$", authRoundTrips)[0]
	log.Printf("e-mail login round trip: p50 %s ms, p99 %s ms", r.P50, r.P99)
	fmt.Fprintf(report, "## E-mail login round trip on the server (start → code from the dev outbox → verify; SMTP excluded; SQLite)\n\n"+
		"| round trips | p50 | p99 | goal |\n|---|---|---|---|\n| %d | %s ms | %s ms | p99 < 20 ms |\n\n", authRoundTrips, r.P50, r.P99)
}
