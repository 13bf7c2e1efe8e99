package swap_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/swap"
)

// benchQuotes times GET /v1/convert/quotes for 100 USDC → WETH on a dev
// chain, through the handler in process (parse, route search, JSON), and
// reports the 50th and 99th percentiles. fresh, when set, is called before
// each timed request, outside the timing, and returns the handler to time.
func benchQuotes(b *testing.B, f *fixture, fresh func() *swap.Handler) {
	q := url.Values{"amount": {"100000000"}, "from": {f.caip("USDC")}, "to": {f.caip("WETH")}, "userAddress": {f.caip("DAI")}}
	req := httptest.NewRequest(http.MethodGet, "/v1/convert/quotes?"+q.Encode(), nil)
	h := swap.NewHandler(f.svc, func(*http.Request, string) string { return "" }, nil)
	times := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if fresh != nil {
			b.StopTimer()
			h = fresh()
			b.StartTimer()
		}
		w := httptest.NewRecorder()
		start := time.Now()
		h.Quotes(w, req)
		times = append(times, time.Since(start))
		if w.Code != http.StatusOK {
			b.Fatalf("quote: %d %s", w.Code, w.Body)
		}
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
}

// Warm: the router's factory, the pairs and their reserves are cached (the
// reserves for the default 2 s, refreshed when they expire mid-run).
func BenchmarkQuote_Warm(b *testing.B) {
	f := newFixture(b, 0, fixtureOpts{ttl: swap.DefaultReserveTTL})
	benchQuotes(b, f, nil)
}

// Cold: nothing cached; each quote reads the router (factory, WETH), the
// factory (getPair of every candidate hop) and the pools' reserves over
// the dev chain's HTTP JSON-RPC, as the first quote after a start does.
func BenchmarkQuote_Cold(b *testing.B) {
	base := newFixture(b, 0, fixtureOpts{})
	benchQuotes(b, base, func() *swap.Handler {
		f := newFixture(b, 0, fixtureOpts{})
		return swap.NewHandler(f.svc, func(*http.Request, string) string { return "" }, nil)
	})
}
