package metrics

import (
	"strconv"
	"testing"
)

// The benchmarks measure the calls on latchd's hot paths: a relay message
// (a delivered counter without labels, a published counter with one) and an
// HTTP request (a counter by route and status and a latency histogram by
// route). None may allocate.

func BenchmarkCounter_RelayDelivered(b *testing.B) {
	c := NewRegistry().Counter("latch_relay_messages_delivered_total", "Delivered.")
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.Inc()
		}
	})
}

func BenchmarkCounter_RelayPublished(b *testing.B) {
	c := NewRegistry().Counter("latch_relay_messages_published_total", "Published.", "result")
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.Inc("stored")
		}
	})
}

func BenchmarkCounter_RelayPublishedWith(b *testing.B) {
	c := NewRegistry().Counter("latch_relay_messages_published_total", "Published.", "result").With("stored")
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.Inc()
		}
	})
}

func BenchmarkHTTPRequest(b *testing.B) {
	r := NewRegistry()
	requests := r.Counter("latch_http_requests_total", "Requests.", "route", "status")
	latency := r.Histogram("latch_http_request_duration_seconds", "Latency.", DefaultLatencyBuckets, "route")
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			requests.Inc("GET /v1/account/{address}/balance", strconv.Itoa(200))
			latency.Observe(0.0042, "GET /v1/account/{address}/balance")
		}
	})
}
