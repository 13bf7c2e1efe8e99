package main

import (
	"fmt"
	"log"
	"os/exec"
	"regexp"
	"strings"
)

// authRoundTrips is how many e-mail logins BenchmarkService_StartVerify times.
const authRoundTrips = 2000

var authMetrics = regexp.MustCompile(`([\d.]+) p50-ms\s+([\d.]+) p99-ms`)

// benchAuth reports the e-mail login round trip on the server (start → the
// code read from the dev outbox → verify; SMTP excluded) by running the Go
// benchmark internal/auth BenchmarkService_StartVerify, which times each
// round trip and reports its p50 and p99.
func benchAuth(report *strings.Builder) {
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", "^BenchmarkService_StartVerify$",
		"-benchtime", fmt.Sprintf("%dx", authRoundTrips), "-count", "1", "./internal/auth")
	out, err := cmd.CombinedOutput()
	if err != nil {
		log.Fatalf("auth benchmark: %v\n%s", err, out)
	}
	m := authMetrics.FindSubmatch(out)
	if m == nil {
		log.Fatalf("auth benchmark: no p50/p99 in its output:\n%s", out)
	}
	log.Printf("e-mail login round trip: p50 %s ms, p99 %s ms", m[1], m[2])
	fmt.Fprintf(report, "## E-mail login round trip on the server (start → code from the dev outbox → verify; SMTP excluded; SQLite)\n\n"+
		"| round trips | p50 | p99 | goal |\n|---|---|---|---|\n| %d | %s ms | %s ms | p99 < 20 ms |\n\n", authRoundTrips, m[1], m[2])
}
