package telemetry_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/ratelimit"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
	"github.com/latchkit/latch/internal/telemetry"
)

const adminToken = "s3cret-admin-token"

// harness serves the telemetry routes behind a test middleware that resolves
// ?projectId= from a fixed set of projects, like the app's middleware does.
type harness struct {
	db       *store.DB
	clock    *clock
	mux      *http.ServeMux
	on, off  *project.Project // analytics on / off
	projects map[string]*project.Project
}

func newHarness(t *testing.T, cfg telemetry.Config) *harness {
	t.Helper()
	h, _ := newHarnessOn(t, storetest.MustOpenSQLite(t), cfg)
	return h
}

// newHarnessOn is newHarness on db; it returns the service too.
func newHarnessOn(t *testing.T, db *store.DB, cfg telemetry.Config) (*harness, *telemetry.Service) {
	t.Helper()
	h := &harness{db: db, clock: newClock(), mux: http.NewServeMux()}
	h.on = MustCreateProject(t, db, true)
	h.off = MustCreateProject(t, db, false)
	h.projects = map[string]*project.Project{h.on.ID: h.on, h.off.ID: h.off}
	if cfg.Now == nil {
		cfg.Now = h.clock.Now
	}
	svc := telemetry.New(db, cfg)
	h.mux.Handle("POST /e", h.middleware(http.HandlerFunc(svc.HandleEvent)))
	h.mux.Handle("POST /batch", h.middleware(http.HandlerFunc(svc.HandleBatch)))
	h.mux.Handle("GET /v1/analytics/summary", h.middleware(http.HandlerFunc(svc.HandleSummary)))
	return h, svc
}

func (h *harness) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := h.projects[r.URL.Query().Get("projectId")]
		if p == nil {
			httpx.Error(w, r, apperr.Fieldf(apperr.Forbidden, "projectId", "unknown project"))
			return
		}
		next.ServeHTTP(w, r.WithContext(project.NewContext(r.Context(), p)))
	})
}

// post sends body to path for project p from 192.0.2.1 with sendBeacon's content type.
func (h *harness) post(p *project.Project, path, body string, mods ...func(*http.Request)) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, path+"?projectId="+p.ID+"&st=appkit&sv=html-wagmi-1.8.24", strings.NewReader(body))
	r.Header.Set("Content-Type", "text/plain;charset=UTF-8")
	r.RemoteAddr = "192.0.2.1:51234"
	for _, m := range mods {
		m(r)
	}
	w := httptest.NewRecorder()
	h.mux.ServeHTTP(w, r)
	return w
}

func (h *harness) summary(query, auth string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, "/v1/analytics/summary?"+query, nil)
	if auth != "" {
		r.Header.Set("Authorization", auth)
	}
	w := httptest.NewRecorder()
	h.mux.ServeHTTP(w, r)
	return w
}

// pending builds one PendingEvent of /batch.
func pending(id, typ, name string, at time.Time) map[string]any {
	return map[string]any{
		"eventId": id, "url": "https://dapp.example/", "domain": "dapp.example", "timestamp": at.UnixMilli(),
		"props": map[string]any{"type": typ, "event": name, "properties": map[string]any{"caipNetworkId": "eip155:1"}},
	}
}

// errorEvent builds the body of /e.
func errorEvent(id string, at time.Time) string {
	b, _ := json.Marshal(map[string]any{
		"eventId": id, "url": "https://dapp.example/", "domain": "dapp.example", "timestamp": at.Format(time.RFC3339Nano),
		"props": map[string]any{"type": "error", "event": "API_ERROR", "errorType": "TypeError", "errorMessage": "x", "stackTrace": "at y"},
	})
	return string(b)
}

func batch(events ...map[string]any) string {
	b, _ := json.Marshal(events)
	return string(b)
}

func withClientID(id string) func(*http.Request) {
	return func(r *http.Request) { r.URL.RawQuery += "&clientId=" + id }
}

func wantStatus(t *testing.T, w *httptest.ResponseRecorder, status int) {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status %d, want %d; body %s", w.Code, status, w.Body)
	}
}

// wantError checks a {status:"FAILED", code, reasons:[{field}]} answer.
func wantError(t *testing.T, w *httptest.ResponseRecorder, status int, field string) {
	t.Helper()
	wantStatus(t, w, status)
	var body httpx.ErrorBody
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("error body %q: %v", w.Body, err)
	}
	if body.Status != "FAILED" || len(body.Reasons) != 1 || body.Reasons[0].Field != field {
		t.Fatalf("error body %+v, want FAILED with field %q", body, field)
	}
}

func TestHandleIngest(t *testing.T) {
	t.Run("EventOK", func(t *testing.T) {
		h := newHarness(t, telemetry.Config{})
		id := newUUID()
		w := h.post(h.on, "/e", errorEvent(id, now.Add(-time.Minute)))
		wantStatus(t, w, http.StatusNoContent)
		rows := storedEvents(t, h.db, h.on.ID)
		if len(rows) != 1 || rows[0].EventID != id || rows[0].Type != "error" || rows[0].Event != "API_ERROR" || rows[0].Day != "2026-03-10" {
			t.Fatalf("stored %+v", rows)
		}
	})

	t.Run("BatchOK", func(t *testing.T) {
		h := newHarness(t, telemetry.Config{})
		w := h.post(h.on, "/batch", batch(
			pending(newUUID(), "track", "MODAL_OPEN", now.Add(-2*time.Second)),
			pending(newUUID(), "track", "SELECT_WALLET", now.Add(-time.Second)),
			pending(newUUID(), "error", "INTERNAL_SDK_ERROR", now),
		))
		wantStatus(t, w, http.StatusNoContent)
		if w.Header().Get(telemetry.DroppedHeader) != "" {
			t.Errorf("%s set without drops", telemetry.DroppedHeader)
		}
		want := []string{"MODAL_OPEN", "SELECT_WALLET", "INTERNAL_SDK_ERROR"}
		if got := eventNames(storedEvents(t, h.db, h.on.ID)); !reflect.DeepEqual(got, want) {
			t.Fatalf("stored %v, want %v", got, want)
		}
	})

	t.Run("ApplicationJSON", func(t *testing.T) {
		h := newHarness(t, telemetry.Config{})
		w := h.post(h.on, "/batch", batch(pending(newUUID(), "track", "MODAL_OPEN", now)), func(r *http.Request) {
			r.Header.Set("Content-Type", "application/json")
		})
		wantStatus(t, w, http.StatusNoContent)
	})

	t.Run("ModalCreatedSkipped", func(t *testing.T) {
		h := newHarness(t, telemetry.Config{})
		w := h.post(h.on, "/batch", batch(
			pending(newUUID(), "track", "MODAL_CREATED", now),
			pending(newUUID(), "track", "MODAL_OPEN", now.Add(time.Millisecond)),
		))
		wantStatus(t, w, http.StatusNoContent)
		if got := eventNames(storedEvents(t, h.db, h.on.ID)); !reflect.DeepEqual(got, []string{"MODAL_OPEN"}) {
			t.Fatalf("stored %v", got)
		}
	})

	t.Run("AnalyticsOff", func(t *testing.T) {
		h := newHarness(t, telemetry.Config{})
		var events []map[string]any
		for i, name := range []string{"MODAL_OPEN", "INITIALIZE", "CONNECT_SUCCESS", "SWAP_SUCCESS", "SOCIAL_LOGIN_SUCCESS"} {
			events = append(events, pending(newUUID(), "track", name, now.Add(time.Duration(i)*time.Millisecond)))
		}
		events = append(events, pending(newUUID(), "error", "API_ERROR", now.Add(time.Second)))
		wantStatus(t, h.post(h.off, "/batch", batch(events...)), http.StatusNoContent)
		want := []string{"INITIALIZE", "CONNECT_SUCCESS", "SOCIAL_LOGIN_SUCCESS", "API_ERROR"}
		if got := eventNames(storedEvents(t, h.db, h.off.ID)); !reflect.DeepEqual(got, want) {
			t.Fatalf("stored %v, want %v", got, want)
		}
	})

	t.Run("DuplicateStoredOnce", func(t *testing.T) {
		h := newHarness(t, telemetry.Config{})
		body := batch(pending(newUUID(), "track", "MODAL_OPEN", now))
		wantStatus(t, h.post(h.on, "/batch", body), http.StatusNoContent)
		wantStatus(t, h.post(h.on, "/batch", body), http.StatusNoContent)
		id := newUUID()
		wantStatus(t, h.post(h.on, "/e", errorEvent(id, now)), http.StatusNoContent)
		wantStatus(t, h.post(h.on, "/e", errorEvent(id, now)), http.StatusNoContent)
		if n := len(storedEvents(t, h.db, h.on.ID)); n != 2 {
			t.Fatalf("%d rows, want 2", n)
		}
	})

	t.Run("ErrorCap", func(t *testing.T) {
		h := newHarness(t, telemetry.Config{})
		for i := 0; i < 5; i++ {
			w := h.post(h.on, "/e", errorEvent(newUUID(), now), withClientID("did:key:z6Mk1"))
			wantStatus(t, w, http.StatusNoContent)
		}
		w := h.post(h.on, "/e", errorEvent(newUUID(), now), withClientID("did:key:z6Mk1"))
		wantStatus(t, w, http.StatusNoContent)
		if got := w.Header().Get(telemetry.DroppedHeader); got != "1" {
			t.Fatalf("%s = %q, want 1", telemetry.DroppedHeader, got)
		}
		// The cap keys on the IP: a rotated client id gets no new budget.
		for _, id := range []string{"did:key:z6Mk2", "did:key:z6Mk3", ""} {
			w = h.post(h.on, "/e", errorEvent(newUUID(), now), withClientID(id))
			if got := w.Header().Get(telemetry.DroppedHeader); got != "1" {
				t.Fatalf("client id %q from the same IP: %s = %q, want 1", id, telemetry.DroppedHeader, got)
			}
		}
		// Track events are not capped, and a batch reports its drops.
		w = h.post(h.on, "/batch", batch(
			pending(newUUID(), "track", "MODAL_OPEN", now),
			pending(newUUID(), "error", "API_ERROR", now),
			pending(newUUID(), "error", "API_ERROR", now),
		), withClientID("did:key:z6Mk1"))
		wantStatus(t, w, http.StatusNoContent)
		if got := w.Header().Get(telemetry.DroppedHeader); got != "2" {
			t.Fatalf("%s = %q, want 2", telemetry.DroppedHeader, got)
		}
		if n := len(storedEvents(t, h.db, h.on.ID)); n != 6 {
			t.Fatalf("%d rows, want 6 (5 errors + 1 track)", n)
		}
		h.clock.Add(telemetry.ErrorWindow)
		w = h.post(h.on, "/e", errorEvent(newUUID(), h.clock.Now()), withClientID("did:key:z6Mk1"))
		wantStatus(t, w, http.StatusNoContent)
		if got := w.Header().Get(telemetry.DroppedHeader); got != "" {
			t.Fatalf("after the window %s = %q, want none", telemetry.DroppedHeader, got)
		}
	})

	t.Run("ErrorCapByIPWithoutClientID", func(t *testing.T) {
		h := newHarness(t, telemetry.Config{})
		for i := 0; i < 5; i++ {
			wantStatus(t, h.post(h.on, "/e", errorEvent(newUUID(), now)), http.StatusNoContent)
		}
		w := h.post(h.on, "/e", errorEvent(newUUID(), now))
		if got := w.Header().Get(telemetry.DroppedHeader); got != "1" {
			t.Fatalf("%s = %q, want 1", telemetry.DroppedHeader, got)
		}
		w = h.post(h.on, "/e", errorEvent(newUUID(), now), func(r *http.Request) { r.RemoteAddr = "198.51.100.7:1" })
		if got := w.Header().Get(telemetry.DroppedHeader); got != "" {
			t.Fatalf("other IP dropped %q", got)
		}
	})

	t.Run("RequestRateLimited", func(t *testing.T) {
		c := newClock()
		limiter := ratelimit.NewMemory(3, 10*time.Second)
		limiter.Now = c.Now
		h := newHarness(t, telemetry.Config{RequestLimiter: limiter, Now: c.Now})
		body := batch(pending(newUUID(), "track", "MODAL_OPEN", now))
		for i := 0; i < 3; i++ {
			wantStatus(t, h.post(h.on, "/batch", body), http.StatusNoContent)
		}
		// 3 per 10 s earns one request every 3⅓ s (GCRA): 1 s after the
		// burst the next one is 2⅓ s away.
		c.Add(time.Second)
		w := h.post(h.on, "/e", errorEvent(newUUID(), now))
		wantError(t, w, http.StatusTooManyRequests, "")
		if got := w.Header().Get("Retry-After"); got != "3" {
			t.Fatalf("Retry-After = %q, want 3", got)
		}
		// Another IP is not limited.
		wantStatus(t, h.post(h.on, "/batch", body, func(r *http.Request) { r.RemoteAddr = "198.51.100.7:1" }), http.StatusNoContent)
		c.Add(6 * time.Second)
		wantStatus(t, h.post(h.on, "/batch", body), http.StatusNoContent)
	})

	t.Run("CustomClientIP", func(t *testing.T) {
		limiter := ratelimit.NewMemory(1, time.Minute)
		h := newHarness(t, telemetry.Config{RequestLimiter: limiter, ClientIP: func(r *http.Request) string { return r.Header.Get("X-Real-IP") }})
		body := batch(pending(newUUID(), "track", "MODAL_OPEN", now))
		ip := func(v string) func(*http.Request) { return func(r *http.Request) { r.Header.Set("X-Real-IP", v) } }
		wantStatus(t, h.post(h.on, "/batch", body, ip("203.0.113.1")), http.StatusNoContent)
		wantStatus(t, h.post(h.on, "/batch", body, ip("203.0.113.2")), http.StatusNoContent)
		wantStatus(t, h.post(h.on, "/batch", body, ip("203.0.113.1")), http.StatusTooManyRequests)
	})
}

// Every event may carry its timestamp as an ISO 8601 string or as epoch
// milliseconds (Latch's widget sends milliseconds for track events to /e);
// anything else keeps the endpoint's message.
func TestHandleIngest_TimestampForms(t *testing.T) {
	h := newHarness(t, telemetry.Config{})
	at := now.Add(-time.Minute).Truncate(time.Millisecond)
	track := func(ts any) string {
		b, _ := json.Marshal(map[string]any{"eventId": newUUID(), "timestamp": ts, "props": map[string]any{"type": "track", "event": "MODAL_OPEN"}})
		return string(b)
	}
	for _, tc := range []struct{ path, body string }{
		{"/e", track(at.UnixMilli())},
		{"/e", track(at.Format(time.RFC3339Nano))},
		{"/batch", "[" + track(at.Format(time.RFC3339Nano)) + "]"},
		{"/batch", "[" + track(at.UnixMilli()) + "]"},
	} {
		wantStatus(t, h.post(h.on, tc.path, tc.body), http.StatusNoContent)
	}
	rows := storedEvents(t, h.db, h.on.ID)
	if len(rows) != 4 {
		t.Fatalf("%d rows stored, want 4", len(rows))
	}
	for _, r := range rows {
		if r.OccurredAt != at.UnixMilli() {
			t.Fatalf("occurred_at %d, want %d", r.OccurredAt, at.UnixMilli())
		}
	}
	for path, msg := range map[string]string{"/e": "timestamp must be an ISO 8601 date string", "/batch": "timestamp must be an integer of milliseconds since 1970"} {
		body := track("last tuesday")
		if path == "/batch" {
			body = "[" + body + "]"
		}
		w := h.post(h.on, path, body)
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), msg) {
			t.Fatalf("%s: %d %s, want 400 %q", path, w.Code, w.Body, msg)
		}
	}
}

func TestHandleIngest_Errors(t *testing.T) {
	good := func() map[string]any { return pending(newUUID(), "track", "MODAL_OPEN", now) }
	withProps := func(props map[string]any) map[string]any {
		e := good()
		e["props"] = props
		return e
	}
	with := func(k string, v any) map[string]any {
		e := good()
		e[k] = v
		return e
	}
	tests := []struct {
		name   string
		path   string
		body   string
		mod    func(*http.Request)
		status int
		field  string
	}{
		{"BadEventIDInBatch", "/batch", batch(good(), good(), good(), with("eventId", "123")), nil, 400, "events[3].eventId"},
		{"BadEventNameInBatch", "/batch", batch(good(), good(), good(), withProps(map[string]any{"type": "track", "event": "modalOpen"})), nil, 400, "events[3].props.event"},
		{"EmptyEventName", "/batch", batch(withProps(map[string]any{"type": "track", "event": ""})), nil, 400, "events[0].props.event"},
		{"BadType", "/batch", batch(good(), withProps(map[string]any{"type": "page", "event": "X"})), nil, 400, "events[1].props.type"},
		{"OldTimestamp", "/batch", batch(good(), with("timestamp", now.AddDate(0, 0, -31).UnixMilli())), nil, 400, "events[1].timestamp"},
		{"FutureTimestamp", "/batch", batch(with("timestamp", now.Add(2*time.Hour).UnixMilli())), nil, 400, "events[0].timestamp"},
		{"NonsenseTimestampInBatch", "/batch", batch(with("timestamp", "2026-03-10 noon")), nil, 400, "events[0].timestamp"},
		{"LongURL", "/batch", batch(with("url", strings.Repeat("x", 2049))), nil, 400, "events[0].url"},
		{"LongDomain", "/batch", batch(with("domain", strings.Repeat("x", 2049))), nil, 400, "events[0].domain"},
		{"LargeProps", "/batch", batch(withProps(map[string]any{"type": "track", "event": "X", "properties": map[string]any{"x": strings.Repeat("a", 17<<10)}})), nil, 400, "events[0].props"},
		{"PropertiesNotObject", "/batch", batch(withProps(map[string]any{"type": "track", "event": "X", "properties": "nope"})), nil, 400, "events[0].props.properties"},
		{"NotArray", "/batch", `{"eventId":"x"}`, nil, 400, "body"},
		{"TooManyEvents", "/batch", func() string {
			events := make([]map[string]any, 501)
			for i := range events {
				events[i] = map[string]any{}
			}
			return batch(events...)
		}(), nil, 400, "events"},
		{"BadJSON", "/batch", `[{"eventId":`, nil, 400, "body"},
		{"EmptyBody", "/e", ``, nil, 400, "body"},
		{"EventBadID", "/e", strings.Replace(errorEvent(testUUIDString, now), testUUIDString, "nope", 1), nil, 400, "eventId"},
		{"EventNonsenseTimestamp", "/e", fmt.Sprintf(`{"eventId":%q,"timestamp":true,"props":{"type":"error","event":"API_ERROR"}}`, newUUID()), nil, 400, "timestamp"},
		{"EventNoProps", "/e", fmt.Sprintf(`{"eventId":%q,"timestamp":%q}`, newUUID(), now.Format(time.RFC3339)), nil, 400, "props"},
		{"BatchTooLarge", "/batch", `[` + strings.Repeat(" ", 256<<10) + `]`, nil, 413, "body"},
		{"EventTooLarge", "/e", errorEvent(newUUID(), now) + strings.Repeat(" ", 32<<10), nil, 413, "body"},
		{"WrongContentType", "/batch", batch(good()), func(r *http.Request) { r.Header.Set("Content-Type", "application/x-www-form-urlencoded") }, 415, "Content-Type"},
		{"LongClientID", "/e", errorEvent(newUUID(), now), withClientID(strings.Repeat("c", 513)), 400, "clientId"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, telemetry.Config{})
			var mods []func(*http.Request)
			if tt.mod != nil {
				mods = append(mods, tt.mod)
			}
			wantError(t, h.post(h.on, tt.path, tt.body, mods...), tt.status, tt.field)
			if n := len(storedEvents(t, h.db, h.on.ID)); n != 0 {
				t.Fatalf("%d rows stored from a refused request", n)
			}
		})
	}
}

const testUUIDString = "6f1c7a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b"

func TestHandleSummary(t *testing.T) {
	h := newHarness(t, telemetry.Config{AdminToken: adminToken})
	wantStatus(t, h.post(h.on, "/batch", batch(
		pending(newUUID(), "track", "MODAL_OPEN", now.AddDate(0, 0, -2)),
		pending(newUUID(), "track", "MODAL_OPEN", now.AddDate(0, 0, -2)),
		pending(newUUID(), "track", "CONNECT_SUCCESS", now.AddDate(0, 0, -2)),
		pending(newUUID(), "track", "MODAL_OPEN", now),
		pending(newUUID(), "track", "MODAL_OPEN", now.AddDate(0, 0, -29)),
		// Outside the default range of 30 days ending today.
		pending(newUUID(), "track", "SELECT_WALLET", now.AddDate(0, 0, -30)),
	)), http.StatusNoContent)
	bearer := "Bearer " + adminToken
	q := "projectId=" + h.on.ID

	t.Run("OK", func(t *testing.T) {
		w := h.summary(q, bearer)
		wantStatus(t, w, http.StatusOK)
		var got telemetry.Summary
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		want := telemetry.Summary{ProjectID: h.on.ID, Days: []telemetry.DaySummary{
			{Day: "2026-02-09", Events: map[string]int{"MODAL_OPEN": 1}},
			{Day: "2026-03-08", Events: map[string]int{"MODAL_OPEN": 2, "CONNECT_SUCCESS": 1}},
			{Day: "2026-03-10", Events: map[string]int{"MODAL_OPEN": 1}},
		}}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("summary %+v, want %+v", got, want)
		}
	})

	t.Run("FromTo", func(t *testing.T) {
		w := h.summary(q+"&from=2026-03-01&to=2026-03-09", bearer)
		wantStatus(t, w, http.StatusOK)
		var got telemetry.Summary
		json.Unmarshal(w.Body.Bytes(), &got)
		if len(got.Days) != 1 || got.Days[0].Day != "2026-03-08" {
			t.Fatalf("summary %+v", got)
		}
	})

	t.Run("EmptyDaysIsArray", func(t *testing.T) {
		w := h.summary("projectId="+h.off.ID, bearer)
		wantStatus(t, w, http.StatusOK)
		if !strings.Contains(w.Body.String(), `"days":[]`) {
			t.Fatalf("body %s, want days:[]", w.Body)
		}
	})

	for _, tt := range []struct{ name, query, field string }{
		{"ErrBadFrom", q + "&from=2026-13-01", "from"},
		{"ErrBadTo", q + "&to=yesterday", "to"},
		{"ErrToBeforeFrom", q + "&from=2026-03-09&to=2026-03-01", "to"},
	} {
		t.Run(tt.name, func(t *testing.T) { wantError(t, h.summary(tt.query, bearer), http.StatusBadRequest, tt.field) })
	}

	t.Run("ErrNoToken", func(t *testing.T) {
		w := h.summary(q, "")
		wantError(t, w, http.StatusUnauthorized, "Authorization")
		if w.Header().Get("WWW-Authenticate") == "" {
			t.Error("no WWW-Authenticate header")
		}
	})

	t.Run("ErrWrongToken", func(t *testing.T) {
		for _, auth := range []string{"Bearer wrong", "Bearer " + adminToken + "x", "Basic " + adminToken, adminToken, "Bearer"} {
			wantError(t, h.summary(q, auth), http.StatusUnauthorized, "Authorization")
		}
	})

	t.Run("ErrDisabled", func(t *testing.T) {
		h := newHarness(t, telemetry.Config{})
		w := h.summary("projectId="+h.on.ID, "Bearer ")
		wantError(t, w, http.StatusForbidden, "Authorization")
		if !strings.Contains(w.Body.String(), "analytics summary is disabled: no admin token configured") {
			t.Fatalf("body %s", w.Body)
		}
	})
}
