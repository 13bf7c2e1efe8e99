package telemetry

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/project"
)

// DroppedHeader tells a client how many of its error events the error cap
// dropped; the request still succeeds because AppKit never reads the answer.
const DroppedHeader = "X-Latch-Dropped"

// HandleEvent serves POST /e: one event (AppKit's TelemetryController sends
// errors with an ISO timestamp; other clients send epoch milliseconds, also
// accepted). It runs behind the project guard, which puts the
// *project.Project in the request context.
func (s *Service) HandleEvent(w http.ResponseWriter, r *http.Request) {
	s.ingest(w, r, maxEventBody, func(body json.RawMessage, now time.Time) ([]Event, error) {
		e, err := parseEvent(body, "", timestampISO, now)
		if err != nil {
			return nil, err
		}
		return []Event{e}, nil
	})
}

// HandleBatch serves POST /batch: an EventsController array of PendingEvent
// with millisecond (or ISO) timestamps, sent by navigator.sendBeacon. It runs behind
// the project guard.
func (s *Service) HandleBatch(w http.ResponseWriter, r *http.Request) {
	s.ingest(w, r, maxBatchBody, parseBatch)
}

func (s *Service) ingest(w http.ResponseWriter, r *http.Request, maxBody int64, parse func(json.RawMessage, time.Time) ([]Event, error)) {
	ctx := r.Context()
	p := project.FromContext(ctx)
	if p == nil {
		httpx.Error(w, r, errors.New("telemetry: no project in request context; route not wrapped by the project middleware"))
		return
	}
	ip := s.cfg.ClientIP(r)
	if d, err := s.cfg.RequestLimiter.Allow(ctx, ip); err != nil {
		// Fail open: the body limits bound what one request costs, and
		// losing telemetry because the limiter is down helps no one.
		slog.WarnContext(ctx, "telemetry request limiter failed; allowing", "err", err)
	} else if !d.Allowed {
		httpx.RateLimited(w, r, d.RetryAfter, "telemetry")
		return
	}
	// AppKit sends a clientId; it is checked for size but not used as the
	// error cap's key, since a client can rotate it at will: the cap keys
	// on the IP, like every other limit.
	if _, err := httpx.Query(r, "clientId", maxClientIDBytes); err != nil {
		httpx.Error(w, r, err)
		return
	}
	var body json.RawMessage
	if err := httpx.DecodeJSON(w, r, maxBody, &body); err != nil {
		httpx.Error(w, r, err)
		return
	}
	events, err := parse(body, s.cfg.Now())
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	got, err := s.Ingest(ctx, p, ip, events)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	// Counts only: event contents may hold addresses and URLs.
	slog.DebugContext(ctx, "telemetry ingested", "project", p.ID, "received", len(events), "stored", got.Stored, "dropped", got.Dropped, "buffered", got.Buffered)
	if got.Dropped > 0 {
		w.Header().Set(DroppedHeader, strconv.Itoa(got.Dropped))
	}
	if got.Buffered > 0 {
		// Accepted, not yet stored: the database is away, and the events are
		// held in this node's memory until it is back.
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// Messages of the summary endpoint's auth failures.
const (
	msgSummaryDisabled = "analytics summary is disabled: no admin token configured"
	msgSummaryAuth     = "A valid admin token is required: Authorization: Bearer <token>"
)

// HandleSummary serves GET /v1/analytics/summary?projectId&from&to to
// operators. It checks the admin token itself too, so that it refuses
// everyone wherever it is mounted.
func (s *Service) HandleSummary(w http.ResponseWriter, r *http.Request) {
	if s.cfg.AdminToken == "" {
		httpx.Error(w, r, apperr.Fieldf(apperr.Forbidden, "Authorization", msgSummaryDisabled))
		return
	}
	if !project.BearerMatches(r, s.cfg.AdminToken) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="latchd"`)
		httpx.Error(w, r, apperr.Fieldf(apperr.Unauthorized, "Authorization", msgSummaryAuth))
		return
	}
	projectID, err := summaryProjectID(r)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	from, to, err := summaryRange(r, s.cfg.Now())
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	sum, err := s.Summary(r.Context(), projectID, from, to)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	httpx.JSON(w, http.StatusOK, sum)
}

// summaryProjectID prefers the project the middleware resolved, and falls
// back to the query parameter if the route is mounted without one.
func summaryProjectID(r *http.Request) (string, error) {
	if p := project.FromContext(r.Context()); p != nil {
		return p.ID, nil
	}
	id := r.URL.Query().Get("projectId")
	if !project.ValidID(id) {
		return "", apperr.Fieldf(apperr.Invalid, "projectId", "projectId is required: 32 hexadecimal characters")
	}
	return id, nil
}

// summaryRange reads from and to (YYYY-MM-DD, UTC). Without them the range
// is the DefaultSummaryDays days ending today, or ending at to.
func summaryRange(r *http.Request, now time.Time) (from, to time.Time, err error) {
	to = truncDay(now)
	if v := r.URL.Query().Get("to"); v != "" {
		if to, err = parseDay("to", v); err != nil {
			return
		}
	}
	from = to.AddDate(0, 0, -(DefaultSummaryDays - 1))
	if v := r.URL.Query().Get("from"); v != "" {
		if from, err = parseDay("from", v); err != nil {
			return
		}
	}
	return from, to, nil
}

func parseDay(field, v string) (time.Time, error) {
	t, err := time.Parse(dayLayout, v)
	if err != nil {
		return time.Time{}, apperr.Fieldf(apperr.Invalid, field, "%s must be a date like 2026-01-31", field)
	}
	return t, nil
}
