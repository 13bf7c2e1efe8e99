package metrics

import (
	"strings"
	"sync"
	"testing"
)

func TestRegistry_WriteText(t *testing.T) {
	r := NewRegistry()
	c := r.Counter("latch_http_requests_total", "Requests.", "route", "status")
	h := r.Histogram("latch_http_request_seconds", "Latency.", []float64{0.1, 1}, "route")
	r.Gauge("latch_up", "Up.", func() float64 { return 1 })
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); c.Inc("GET /x", "200"); h.Observe(0.05, "GET /x") }()
	}
	wg.Wait()
	h.Observe(5, "GET /x")
	c.Inc(`we"ird`, "500")
	var b strings.Builder
	r.WriteText(&b)
	out := b.String()
	for _, want := range []string{
		`latch_http_requests_total{route="GET /x",status="200"} 50`,
		`latch_http_requests_total{route="we\"ird",status="500"} 1`,
		`latch_http_request_seconds_bucket{route="GET /x",le="0.1"} 50`,
		`latch_http_request_seconds_bucket{route="GET /x",le="1"} 50`,
		`latch_http_request_seconds_bucket{route="GET /x",le="+Inf"} 51`,
		`latch_http_request_seconds_count{route="GET /x"} 51`,
		"# TYPE latch_up gauge\nlatch_up 1\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if c.Value("GET /x", "200") != 50 {
		t.Fatal("Value")
	}
}
