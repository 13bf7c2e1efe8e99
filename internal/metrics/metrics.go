// Package metrics is latchd's metrics registry: labelled counters,
// histograms and gauges served at /metrics in the Prometheus text format,
// beside the Go runtime's and the process's own metrics. It is a thin layer
// over the Prometheus client library that keeps latchd's packages on a small
// API (Counter, Histogram, Gauge) and its hot paths free of allocations.
package metrics

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

// Registry holds metric families. It is safe for concurrent use.
type Registry struct {
	reg *prometheus.Registry

	mu sync.Mutex
	// families are the labelled families registered through this API, so
	// that one without series yet is still listed (its HELP and TYPE), as
	// the Prometheus library alone would not.
	families map[string]family
}

type family struct{ help, typ string }

// NewRegistry returns a registry holding the Go runtime's metrics (go_*:
// goroutines, heap, GC pauses, …) and the process's (process_*: CPU time,
// resident memory, open file descriptors, start time).
func NewRegistry() *Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return &Registry{reg: reg, families: map[string]family{}}
}

func (r *Registry) declare(name, help, typ string) {
	r.mu.Lock()
	r.families[name] = family{help, typ}
	r.mu.Unlock()
}

// register adds c, or returns the collector already registered under the
// same name, help and labels (two services sharing one registry then share
// the family). A name registered again with other labels or help is a bug:
// it panics.
func register[C prometheus.Collector](r *Registry, c C) C {
	err := r.reg.Register(c)
	if err == nil {
		return c
	}
	var dup prometheus.AlreadyRegisteredError
	if errors.As(err, &dup) {
		if existing, ok := dup.ExistingCollector.(C); ok {
			return existing
		}
	}
	panic(fmt.Sprintf("metrics: %v", err))
}

// maxCachedLabels is the most labels a family may have for its series to be
// found through seriesCache; families with more go through the library's
// own lookup (none of latchd's has more).
const maxCachedLabels = 3

// seriesKey is a series' label values, as a map key built without
// allocating.
type seriesKey [maxCachedLabels]string

// seriesCache finds a family's series by label values. It saves the
// library's per-call hashing and label validation (about 3x the cost of a
// count), which the relay and the HTTP server pay on every message and
// request.
type seriesCache[M any] struct {
	only   M // the one series of a family without labels
	mu     sync.RWMutex
	one    map[string]M // one label: by its value
	series map[seriesKey]M
	create func(values ...string) M // the library's lookup, which validates
}

func newSeriesCache[M any](labels int, create func(values ...string) M) *seriesCache[M] {
	c := &seriesCache[M]{one: map[string]M{}, series: map[seriesKey]M{}, create: create}
	if labels == 0 {
		c.only = create()
	}
	return c
}

func (c *seriesCache[M]) get(values []string) M {
	var (
		m  M
		ok bool
		k  seriesKey
	)
	switch {
	case len(values) == 0:
		return c.only
	case len(values) == 1:
		c.mu.RLock()
		m, ok = c.one[values[0]]
		c.mu.RUnlock()
	case len(values) <= maxCachedLabels:
		copy(k[:], values)
		c.mu.RLock()
		m, ok = c.series[k]
		c.mu.RUnlock()
	default:
		return c.create(slices.Clone(values)...)
	}
	if ok {
		return m
	}
	// create is only ever given a copy: values itself must not escape, or
	// every caller's variadic slice would be allocated on the heap. It
	// panics on a wrong number of values.
	m = c.create(slices.Clone(values)...)
	c.mu.Lock()
	if len(values) == 1 {
		c.one[values[0]] = m
	} else {
		c.series[k] = m
	}
	c.mu.Unlock()
	return m
}

// CounterVec is a family of counters keyed by label values.
type CounterVec struct {
	vec    *prometheus.CounterVec
	labels []string
	cache  *seriesCache[prometheus.Counter]
}

// Counter registers a counter family.
func (r *Registry) Counter(name, help string, labels ...string) *CounterVec {
	vec := register(r, prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels))
	r.declare(name, help, "counter")
	return &CounterVec{vec: vec, labels: labels, cache: newSeriesCache(len(labels), func(values ...string) prometheus.Counter {
		return vec.WithLabelValues(values...)
	})}
}

// Add adds n to the series with the given label values. The number of
// values must match the family's labels (else it panics, as a programming
// error).
func (c *CounterVec) Add(n uint64, values ...string) {
	c.cache.get(values).Add(float64(n))
}

// Inc adds one.
func (c *CounterVec) Inc(values ...string) {
	c.cache.get(values).Inc()
}

// With returns the series with the given label values, resolved once: a hot
// path that always counts the same series keeps it and counts with no label
// lookup. The number of values must match the family's labels (else it
// panics, as a programming error).
func (c *CounterVec) With(values ...string) Counter {
	return Counter{c.cache.get(values)}
}

// Counter is one series of a CounterVec (CounterVec.With).
type Counter struct{ c prometheus.Counter }

// Inc adds one.
func (c Counter) Inc() { c.c.Inc() }

// Add adds n.
func (c Counter) Add(n uint64) { c.c.Add(float64(n)) }

// Value returns the current value of a series, 0 when it has never been
// counted (for tests; reading does not create the series).
func (c *CounterVec) Value(values ...string) uint64 {
	ch := make(chan prometheus.Metric)
	go func() { c.vec.Collect(ch); close(ch) }()
	var v uint64
	for m := range ch {
		var d dto.Metric
		if err := m.Write(&d); err == nil && c.matches(d.GetLabel(), values) {
			v = uint64(d.GetCounter().GetValue())
		}
	}
	return v
}

// matches reports whether a series' label pairs carry values for the
// family's labels, in their declared order.
func (c *CounterVec) matches(pairs []*dto.LabelPair, values []string) bool {
	if len(pairs) != len(values) || len(values) != len(c.labels) {
		return false
	}
	for i, name := range c.labels {
		found := false
		for _, p := range pairs {
			if p.GetName() == name {
				found = p.GetValue() == values[i]
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// HistogramVec is a family of histograms keyed by label values.
type HistogramVec struct {
	cache *seriesCache[prometheus.Observer]
}

// DefaultLatencyBuckets are seconds, from 100 µs to 10 s.
var DefaultLatencyBuckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// Histogram registers a histogram family with the given upper bounds.
func (r *Registry) Histogram(name, help string, buckets []float64, labels ...string) *HistogramVec {
	vec := register(r, prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets}, labels))
	r.declare(name, help, "histogram")
	return &HistogramVec{cache: newSeriesCache(len(labels), func(values ...string) prometheus.Observer {
		return vec.WithLabelValues(values...)
	})}
}

// Observe records v in the series with the given label values.
func (h *HistogramVec) Observe(v float64, values ...string) {
	h.cache.get(values).Observe(v)
}

// Gauge registers a gauge whose value is read from fn at scrape time. A
// name can hold one gauge: registering it twice panics.
func (r *Registry) Gauge(name, help string, fn func() float64) {
	if err := r.reg.Register(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, fn)); err != nil {
		panic(fmt.Sprintf("metrics: gauge %s: %v", name, err))
	}
}

// WriteText writes every family in the Prometheus text exposition format
// (version 0.0.4), sorted by name; a family without series yet is listed by
// its HELP and TYPE lines.
func (r *Registry) WriteText(w io.Writer) error {
	gathered, err := r.reg.Gather()
	if err != nil {
		return err
	}
	have := make(map[string]bool, len(gathered))
	for _, f := range gathered {
		have[f.GetName()] = true
	}
	r.mu.Lock()
	var empty []string
	for name := range r.families {
		if !have[name] {
			empty = append(empty, name)
		}
	}
	declared := maps.Clone(r.families)
	r.mu.Unlock()
	slices.Sort(empty)
	bw := bufio.NewWriter(w)
	for _, f := range gathered {
		for len(empty) > 0 && empty[0] < f.GetName() {
			writeHeader(bw, empty[0], declared[empty[0]])
			empty = empty[1:]
		}
		if _, err := expfmt.MetricFamilyToText(bw, f); err != nil {
			return err
		}
	}
	for _, name := range empty {
		writeHeader(bw, name, declared[name])
	}
	return bw.Flush()
}

func writeHeader(w io.Writer, name string, f family) {
	help := strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(f.help)
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, f.typ)
}

// ServeHTTP serves /metrics in the text format.
func (r *Registry) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		http.Error(w, "gathering metrics: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Write(b.Bytes())
}
