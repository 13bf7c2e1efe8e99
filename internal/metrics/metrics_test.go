package metrics

import (
	"net/http/httptest"
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

// The Go runtime's and the process's metrics are served beside latchd's.
func TestRegistry_RuntimeAndProcess(t *testing.T) {
	var b strings.Builder
	if err := NewRegistry().WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# TYPE go_goroutines gauge", "go_memstats_heap_alloc_bytes ", "go_gc_duration_seconds", "go_info{version=", "process_resident_memory_bytes ", "process_open_fds ", "process_start_time_seconds "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q", want)
		}
	}
}

func TestRegistry_ServeHTTP(t *testing.T) {
	r := NewRegistry()
	r.Counter("latch_relay_messages_delivered_total", "Delivered.").Inc()
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if ct := rec.Header().Get("Content-Type"); rec.Code != 200 || !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Fatalf("%d %q", rec.Code, ct)
	}
	if !strings.Contains(rec.Body.String(), "\nlatch_relay_messages_delivered_total 1\n") {
		t.Fatalf("body:\n%s", rec.Body.String())
	}
}

func TestRegistry_Register(t *testing.T) {
	t.Run("OKSameFamilyShared", func(t *testing.T) {
		r := NewRegistry()
		a := r.Counter("latch_x_total", "X.", "result")
		b := r.Counter("latch_x_total", "X.", "result")
		a.Inc("ok")
		b.Inc("ok")
		if a.Value("ok") != 2 {
			t.Fatalf("shared family: %d", a.Value("ok"))
		}
	})
	t.Run("ErrOtherLabels", func(t *testing.T) {
		r := NewRegistry()
		r.Counter("latch_x_total", "X.", "result")
		defer func() {
			if recover() == nil {
				t.Fatal("no panic for a name registered again with other labels")
			}
		}()
		r.Counter("latch_x_total", "X.", "code")
	})
	t.Run("ErrGaugeTwice", func(t *testing.T) {
		r := NewRegistry()
		r.Gauge("latch_g", "G.", func() float64 { return 1 })
		defer func() {
			if recover() == nil {
				t.Fatal("no panic for a gauge registered twice")
			}
		}()
		r.Gauge("latch_g", "G.", func() float64 { return 2 })
	})
}

// Value reads a series by its label values in declared order, and reading
// a series never counted neither creates it nor reads another.
func TestCounterVec_Value(t *testing.T) {
	r := NewRegistry()
	c := r.Counter("latch_rpc_upstream_errors_total", "Errors.", "network", "upstream", "class")
	c.Add(3, "eip155:1", "a", "timeout")
	c.Inc("eip155:1", "timeout", "a") // same values, other labels
	if got := c.Value("eip155:1", "a", "timeout"); got != 3 {
		t.Fatalf("Value = %d, want 3", got)
	}
	if got := c.Value("eip155:1", "b", "timeout"); got != 0 {
		t.Fatalf("Value of an uncounted series = %d", got)
	}
	var b strings.Builder
	r.WriteText(&b)
	if strings.Contains(b.String(), `upstream="b"`) {
		t.Fatal("Value created a series")
	}
}

// The calls on the relay's and the HTTP server's hot paths do not allocate.
func TestHotPathsDoNotAllocate(t *testing.T) {
	r := NewRegistry()
	delivered := r.Counter("latch_relay_messages_delivered_total", "Delivered.")
	published := r.Counter("latch_relay_messages_published_total", "Published.", "result")
	requests := r.Counter("latch_http_requests_total", "Requests.", "route", "status")
	latency := r.Histogram("latch_http_request_duration_seconds", "Latency.", DefaultLatencyBuckets, "route")
	route, status := "GET /v1/account/{address}/balance", "200"
	for name, fn := range map[string]func(){
		"delivered": func() { delivered.Inc() },
		"published": func() { published.Inc("stored") },
		"requests":  func() { requests.Inc(route, status) },
		"latency":   func() { latency.Observe(0.004, route) },
	} {
		fn() // the series exists from then on
		if n := testing.AllocsPerRun(1000, fn); n != 0 {
			t.Errorf("%s: %v allocations per call", name, n)
		}
	}
}

// A labelled family is listed before its first series, as it always was.
func TestRegistry_EmptyFamilyListed(t *testing.T) {
	r := NewRegistry()
	r.Counter("latch_rpc_upstream_errors_total", "Errors by class.", "class")
	r.Histogram("latch_http_request_duration_seconds", "Latency.", DefaultLatencyBuckets, "route")
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# HELP latch_rpc_upstream_errors_total Errors by class.\n# TYPE latch_rpc_upstream_errors_total counter\n",
		"# TYPE latch_http_request_duration_seconds histogram\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q", want)
		}
	}
	if i, j := strings.Index(b.String(), "go_goroutines"), strings.Index(b.String(), "latch_http_request_duration_seconds"); i > j {
		t.Error("families not sorted by name")
	}
}

// With resolves a series once; counting through it is counting the series.
func TestCounterVec_With(t *testing.T) {
	c := NewRegistry().Counter("latch_relay_messages_published_total", "Published.", "result")
	stored := c.With("stored")
	stored.Inc()
	stored.Add(2)
	c.Inc("stored")
	if got := c.Value("stored"); got != 4 {
		t.Fatalf("stored = %d, want 4", got)
	}
	if got := c.Value("duplicate"); got != 0 {
		t.Fatalf("duplicate = %d, want 0 (With resolved another series)", got)
	}
	if n := testing.AllocsPerRun(100, stored.Inc); n != 0 {
		t.Fatalf("Inc allocates %v times", n)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("With with the wrong number of values did not panic")
		}
	}()
	c.With("stored", "extra")
}
