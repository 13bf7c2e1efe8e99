package telemetry

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/apperr"
)

// Event types (api-shapes §2: PendingEvent.props.type).
const (
	TypeTrack = "track"
	TypeError = "error"
)

// Limits on what a client may send. They are generous for AppKit, whose
// batches flush at 45 KB (api-shapes §2), and small enough that one request
// cannot make the server store much.
const (
	maxBatchEvents   = 500
	maxBatchBody     = 256 << 10
	maxEventBody     = 32 << 10
	maxPropsBytes    = 16 << 10
	maxURLBytes      = 2 << 10
	maxEventName     = 64
	maxClientIDBytes = 512
	// Timestamps outside [now-maxEventAge, now+maxEventSkew] are refused: an
	// offline page may flush late, a client clock may run a little fast, but
	// anything further off is junk that would pollute the daily summary.
	maxEventAge  = 30 * 24 * time.Hour
	maxEventSkew = time.Hour
)

// Event is one validated telemetry event, in either wire shape.
type Event struct {
	// ID is the client-chosen UUID (lowercase); retries reuse it, so it
	// deduplicates per project.
	ID         string
	Type       string // TypeTrack or TypeError
	Name       string // props.event, UPPER_SNAKE, e.g. MODAL_OPEN
	OccurredAt time.Time
	URL        string
	Domain     string
	// Props is the compacted props object as the client sent it.
	Props json.RawMessage
}

var (
	uuidRE      = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	eventNameRE = regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`)
)

// Validate checks e against the ingest rules at time now. field prefixes the
// field names of the error (e.g. "events[3]"), so clients learn which event
// of a batch is wrong.
func (e *Event) Validate(field string, now time.Time) error {
	if !uuidRE.MatchString(e.ID) {
		return apperr.Fieldf(apperr.Invalid, join(field, "eventId"), "eventId must be a UUID")
	}
	if e.Type != TypeTrack && e.Type != TypeError {
		return apperr.Fieldf(apperr.Invalid, join(field, "props.type"), "props.type must be %q or %q", TypeTrack, TypeError)
	}
	if e.Name == "" {
		return apperr.Fieldf(apperr.Invalid, join(field, "props.event"), "props.event is required")
	}
	if len(e.Name) > maxEventName || !eventNameRE.MatchString(e.Name) {
		return apperr.Fieldf(apperr.Invalid, join(field, "props.event"), "props.event must be an UPPER_SNAKE_CASE name of at most %d characters", maxEventName)
	}
	if e.OccurredAt.Before(now.Add(-maxEventAge)) || e.OccurredAt.After(now.Add(maxEventSkew)) {
		return apperr.Fieldf(apperr.Invalid, join(field, "timestamp"), "timestamp must be within the last 30 days and at most 1 hour ahead")
	}
	if len(e.URL) > maxURLBytes {
		return apperr.Fieldf(apperr.Invalid, join(field, "url"), "url is longer than %d bytes", maxURLBytes)
	}
	if len(e.Domain) > maxURLBytes {
		return apperr.Fieldf(apperr.Invalid, join(field, "domain"), "domain is longer than %d bytes", maxURLBytes)
	}
	if len(e.Props) > maxPropsBytes {
		return apperr.Fieldf(apperr.Invalid, join(field, "props"), "props is larger than %d bytes", maxPropsBytes)
	}
	return nil
}

// timestampKind says how an endpoint's own client encodes timestamps:
// TelemetryController (POST /e) sends an ISO string, EventsController
// (POST /batch) Date.now(). Both forms are accepted on both endpoints (other
// clients, Latch's own widget among them, send epoch milliseconds to /e as
// well); the kind picks the message a timestamp of neither form gets.
type timestampKind int

const (
	timestampISO timestampKind = iota
	timestampMillis
)

// wireEvent is the common part of both wire shapes.
type wireEvent struct {
	EventID   string          `json:"eventId"`
	URL       string          `json:"url"`
	Domain    string          `json:"domain"`
	Timestamp json.RawMessage `json:"timestamp"`
	Props     json.RawMessage `json:"props"`
}

// wireProps lists the props fields we type-check. Unknown fields are kept as
// sent (within maxPropsBytes) so newer AppKit versions keep working.
type wireProps struct {
	Type         string                     `json:"type"`
	Event        string                     `json:"event"`
	Address      string                     `json:"address"`
	Properties   map[string]json.RawMessage `json:"properties"`
	Items        []json.RawMessage          `json:"items"`
	ErrorType    string                     `json:"errorType"`
	ErrorMessage string                     `json:"errorMessage"`
	StackTrace   string                     `json:"stackTrace"`
}

// parseEvent decodes and validates one event. field is the prefix of error
// field names ("" for POST /e, "events[i]" for POST /batch).
func parseEvent(raw json.RawMessage, field string, ts timestampKind, now time.Time) (Event, error) {
	if !isObject(raw) {
		return Event{}, apperr.Fieldf(apperr.Invalid, orBody(field), "an event must be a JSON object")
	}
	var w wireEvent
	if err := json.Unmarshal(raw, &w); err != nil {
		return Event{}, typeError(err, field)
	}
	if w.EventID == "" {
		return Event{}, apperr.Fieldf(apperr.Invalid, join(field, "eventId"), "eventId is required")
	}
	at, err := parseTimestamp(w.Timestamp, join(field, "timestamp"), ts)
	if err != nil {
		return Event{}, err
	}
	if !isObject(w.Props) {
		return Event{}, apperr.Fieldf(apperr.Invalid, join(field, "props"), "props must be a JSON object")
	}
	var p wireProps
	if err := json.Unmarshal(w.Props, &p); err != nil {
		return Event{}, typeError(err, join(field, "props"))
	}
	var props bytes.Buffer
	if err := json.Compact(&props, w.Props); err != nil {
		return Event{}, apperr.Fieldf(apperr.Invalid, join(field, "props"), "props is not valid JSON")
	}
	e := Event{
		ID:         strings.ToLower(w.EventID),
		Type:       p.Type,
		Name:       p.Event,
		OccurredAt: at,
		URL:        w.URL,
		Domain:     w.Domain,
		Props:      props.Bytes(),
	}
	return e, e.Validate(field, now)
}

// parseBatch decodes the body of POST /batch: a JSON array of PendingEvent.
// It validates every event before returning, so a batch is all or nothing.
func parseBatch(body json.RawMessage, now time.Time) ([]Event, error) {
	if b := bytes.TrimLeft(body, " \t\r\n"); len(b) == 0 || b[0] != '[' {
		return nil, apperr.Fieldf(apperr.Invalid, "body", "Request body must be a JSON array of events")
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(body, &raws); err != nil {
		return nil, apperr.Fieldf(apperr.Invalid, "body", "Request body must be a JSON array of events")
	}
	if len(raws) > maxBatchEvents {
		return nil, apperr.Fieldf(apperr.Invalid, "events", "A batch holds at most %d events, not %d", maxBatchEvents, len(raws))
	}
	events := make([]Event, 0, len(raws))
	for i, raw := range raws {
		e, err := parseEvent(raw, "events["+strconv.Itoa(i)+"]", timestampMillis, now)
		if err != nil {
			return nil, err
		}
		events = append(events, e)
	}
	return events, nil
}

// parseTimestamp reads an ISO 8601 (RFC 3339) string or an integer of
// epoch milliseconds, whatever kind says the endpoint's client sends.
func parseTimestamp(raw json.RawMessage, field string, kind timestampKind) (time.Time, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err == nil && s != "" {
			if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
				return t.UTC(), nil
			}
		}
	} else if ms, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return time.UnixMilli(ms).UTC(), nil
	}
	if kind == timestampISO {
		return time.Time{}, apperr.Fieldf(apperr.Invalid, field, "timestamp must be an ISO 8601 date string")
	}
	return time.Time{}, apperr.Fieldf(apperr.Invalid, field, "timestamp must be an integer of milliseconds since 1970")
}

// typeError turns a json type mismatch into an error naming the field.
func typeError(err error, prefix string) error {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) && typ.Field != "" {
		return apperr.Fieldf(apperr.Invalid, join(prefix, typ.Field), "%s has the wrong type (%s)", typ.Field, typ.Value)
	}
	return apperr.Fieldf(apperr.Invalid, orBody(prefix), "event is not valid JSON")
}

func isObject(raw json.RawMessage) bool {
	b := bytes.TrimLeft(raw, " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}

func join(prefix, field string) string {
	if prefix == "" {
		return field
	}
	return prefix + "." + field
}

func orBody(field string) string {
	if field == "" {
		return "body"
	}
	return field
}
