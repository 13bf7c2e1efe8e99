// Package metrics is a small Prometheus-text metrics registry: labelled
// counters and histograms, rendered at /metrics. It covers what latchd needs
// without pulling a client library into every package.
package metrics

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Registry holds metric families. It is safe for concurrent use.
type Registry struct {
	mu       sync.Mutex
	families []family
}

type family interface {
	write(w io.Writer)
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{} }

// CounterVec is a family of counters keyed by label values.
type CounterVec struct {
	name, help string
	labels     []string
	mu         sync.RWMutex
	series     map[string]*counterSeries
}

type counterSeries struct {
	values []string
	n      atomic.Uint64
}

// Counter registers a counter family.
func (r *Registry) Counter(name, help string, labels ...string) *CounterVec {
	c := &CounterVec{name: name, help: help, labels: labels, series: map[string]*counterSeries{}}
	r.add(c)
	return c
}

func (r *Registry) add(f family) {
	r.mu.Lock()
	r.families = append(r.families, f)
	r.mu.Unlock()
}

// Add adds n to the series with the given label values.
func (c *CounterVec) Add(n uint64, values ...string) {
	key := strings.Join(values, "\xff")
	c.mu.RLock()
	s := c.series[key]
	c.mu.RUnlock()
	if s == nil {
		c.mu.Lock()
		if s = c.series[key]; s == nil {
			s = &counterSeries{values: append([]string(nil), values...)}
			c.series[key] = s
		}
		c.mu.Unlock()
	}
	s.n.Add(n)
}

// Inc adds one.
func (c *CounterVec) Inc(values ...string) { c.Add(1, values...) }

// Value returns the current value of a series (for tests).
func (c *CounterVec) Value(values ...string) uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if s := c.series[strings.Join(values, "\xff")]; s != nil {
		return s.n.Load()
	}
	return 0
}

func (c *CounterVec) write(w io.Writer) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s counter\n", c.name, c.help, c.name)
	c.mu.RLock()
	keys := sortedKeys(c.series)
	for _, k := range keys {
		s := c.series[k]
		fmt.Fprintf(w, "%s%s %d\n", c.name, labelText(c.labels, s.values, "", ""), s.n.Load())
	}
	c.mu.RUnlock()
}

// HistogramVec is a family of histograms keyed by label values.
type HistogramVec struct {
	name, help string
	labels     []string
	buckets    []float64
	mu         sync.RWMutex
	series     map[string]*histSeries
}

type histSeries struct {
	values []string
	mu     sync.Mutex
	counts []uint64 // per bucket, not cumulative; the last is +Inf
	sum    float64
	n      uint64
}

// DefaultLatencyBuckets are seconds, from 100 µs to 10 s.
var DefaultLatencyBuckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// Histogram registers a histogram family with the given upper bounds.
func (r *Registry) Histogram(name, help string, buckets []float64, labels ...string) *HistogramVec {
	h := &HistogramVec{name: name, help: help, labels: labels, buckets: buckets, series: map[string]*histSeries{}}
	r.add(h)
	return h
}

// Observe records v in the series with the given label values.
func (h *HistogramVec) Observe(v float64, values ...string) {
	key := strings.Join(values, "\xff")
	h.mu.RLock()
	s := h.series[key]
	h.mu.RUnlock()
	if s == nil {
		h.mu.Lock()
		if s = h.series[key]; s == nil {
			s = &histSeries{values: append([]string(nil), values...), counts: make([]uint64, len(h.buckets)+1)}
			h.series[key] = s
		}
		h.mu.Unlock()
	}
	i := sort.SearchFloat64s(h.buckets, v)
	s.mu.Lock()
	s.counts[i]++
	s.sum += v
	s.n++
	s.mu.Unlock()
}

func (h *HistogramVec) write(w io.Writer) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s histogram\n", h.name, h.help, h.name)
	h.mu.RLock()
	keys := sortedKeys(h.series)
	for _, k := range keys {
		s := h.series[k]
		s.mu.Lock()
		var cum uint64
		for i, b := range h.buckets {
			cum += s.counts[i]
			fmt.Fprintf(w, "%s_bucket%s %d\n", h.name, labelText(h.labels, s.values, "le", formatFloat(b)), cum)
		}
		cum += s.counts[len(h.buckets)]
		fmt.Fprintf(w, "%s_bucket%s %d\n", h.name, labelText(h.labels, s.values, "le", "+Inf"), cum)
		fmt.Fprintf(w, "%s_sum%s %s\n", h.name, labelText(h.labels, s.values, "", ""), formatFloat(s.sum))
		fmt.Fprintf(w, "%s_count%s %d\n", h.name, labelText(h.labels, s.values, "", ""), s.n)
		s.mu.Unlock()
	}
	h.mu.RUnlock()
}

// Gauge registers a gauge whose value is read from fn at scrape time.
func (r *Registry) Gauge(name, help string, fn func() float64) {
	r.add(gaugeFunc{name: name, help: help, fn: fn})
}

type gaugeFunc struct {
	name, help string
	fn         func() float64
}

func (g gaugeFunc) write(w io.Writer) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s gauge\n%s %s\n", g.name, g.help, g.name, g.name, formatFloat(g.fn()))
}

// WriteText writes every family in the Prometheus text exposition format.
func (r *Registry) WriteText(w io.Writer) {
	r.mu.Lock()
	fams := append([]family(nil), r.families...)
	r.mu.Unlock()
	for _, f := range fams {
		f.write(w)
	}
}

// ServeHTTP serves /metrics.
func (r *Registry) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	r.WriteText(w)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func labelText(names, values []string, extraName, extraValue string) string {
	if len(names) == 0 && extraName == "" {
		return ""
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(n)
		b.WriteString(`="`)
		b.WriteString(escape(values[i]))
		b.WriteByte('"')
	}
	if extraName != "" {
		if len(names) > 0 {
			b.WriteByte(',')
		}
		b.WriteString(extraName)
		b.WriteString(`="`)
		b.WriteString(extraValue)
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}

func escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}

func formatFloat(f float64) string {
	if math.IsInf(f, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
