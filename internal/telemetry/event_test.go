package telemetry

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/apperr"
)

var testNow = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

const testUUID = "0b4f2c4e-8d1a-4c3b-9a57-2f1e3d4c5b6a"

func TestParseEvent(t *testing.T) {
	nowMS := testNow.UnixMilli()
	valid := func(ts string, props string) string {
		return `{"eventId":"` + testUUID + `","url":"https://dapp.example/x","domain":"dapp.example","timestamp":` + ts + `,"props":` + props + `}`
	}
	ms := fmt.Sprint(nowMS)
	iso := `"2026-03-10T11:59:59.123Z"`
	tests := []struct {
		name  string
		body  string
		kind  timestampKind
		field string // "" = valid
	}{
		{"OKTrack", valid(ms, `{"type":"track","event":"MODAL_OPEN","properties":{"connected":true}}`), timestampMillis, ""},
		{"OKError", valid(iso, `{"type":"error","event":"API_ERROR","errorType":"TypeError","errorMessage":"boom","stackTrace":"at x"}`), timestampISO, ""},
		{"OKAddressItems", valid(ms, `{"type":"track","event":"SEND_SUCCESS","address":"0xabc","items":[{"a":1}],"extra":"kept"}`), timestampMillis, ""},
		{"OKUpperUUID", strings.Replace(valid(ms, `{"type":"track","event":"X"}`), testUUID, strings.ToUpper(testUUID), 1), timestampMillis, ""},
		{"ErrNotObject", `[1]`, timestampMillis, "body"},
		{"ErrEventIDMissing", `{"timestamp":` + ms + `,"props":{"type":"track","event":"X"}}`, timestampMillis, "eventId"},
		{"ErrEventIDNotUUID", strings.Replace(valid(ms, `{"type":"track","event":"X"}`), testUUID, "not-a-uuid", 1), timestampMillis, "eventId"},
		{"ErrEventIDType", `{"eventId":12,"timestamp":` + ms + `,"props":{"type":"track","event":"X"}}`, timestampMillis, "eventId"},
		{"ErrURLType", `{"eventId":"` + testUUID + `","url":5,"timestamp":` + ms + `,"props":{"type":"track","event":"X"}}`, timestampMillis, "url"},
		{"ErrTimestampMissing", `{"eventId":"` + testUUID + `","props":{"type":"track","event":"X"}}`, timestampMillis, "timestamp"},
		// Either form on either endpoint (the widget sends milliseconds to /e too).
		{"OKTimestampISOForBatch", valid(iso, `{"type":"track","event":"X"}`), timestampMillis, ""},
		{"OKTimestampMillisForE", valid(ms, `{"type":"error","event":"X"}`), timestampISO, ""},
		{"OKTrackMillisForE", valid(ms, `{"type":"track","event":"MODAL_OPEN"}`), timestampISO, ""},
		{"ErrTimestampNonsenseForE", valid(`"yesterday"`, `{"type":"error","event":"X"}`), timestampISO, "timestamp"},
		{"ErrTimestampNonsenseForBatch", valid(`"yesterday"`, `{"type":"track","event":"X"}`), timestampMillis, "timestamp"},
		{"ErrTimestampBoolForE", valid(`true`, `{"type":"error","event":"X"}`), timestampISO, "timestamp"},
		{"ErrTimestampEmptyString", valid(`""`, `{"type":"error","event":"X"}`), timestampISO, "timestamp"},
		{"ErrTimestampObject", valid(`{}`, `{"type":"track","event":"X"}`), timestampMillis, "timestamp"},
		{"ErrTimestampFractional", valid(ms+".5", `{"type":"track","event":"X"}`), timestampMillis, "timestamp"},
		{"ErrTimestampOld", valid(fmt.Sprint(testNow.Add(-31*24*time.Hour).UnixMilli()), `{"type":"track","event":"X"}`), timestampMillis, "timestamp"},
		{"ErrTimestampFuture", valid(fmt.Sprint(testNow.Add(2*time.Hour).UnixMilli()), `{"type":"track","event":"X"}`), timestampMillis, "timestamp"},
		{"ErrPropsMissing", `{"eventId":"` + testUUID + `","timestamp":` + ms + `}`, timestampMillis, "props"},
		{"ErrPropsString", valid(ms, `"x"`), timestampMillis, "props"},
		{"ErrTypeMissing", valid(ms, `{"event":"X"}`), timestampMillis, "props.type"},
		{"ErrTypeUnknown", valid(ms, `{"type":"page","event":"X"}`), timestampMillis, "props.type"},
		{"ErrEventMissing", valid(ms, `{"type":"track"}`), timestampMillis, "props.event"},
		{"ErrEventLower", valid(ms, `{"type":"track","event":"modal_open"}`), timestampMillis, "props.event"},
		{"ErrEventSpaces", valid(ms, `{"type":"track","event":"MODAL OPEN"}`), timestampMillis, "props.event"},
		{"ErrEventTooLong", valid(ms, `{"type":"track","event":"`+strings.Repeat("A", 65)+`"}`), timestampMillis, "props.event"},
		{"ErrEventType", valid(ms, `{"type":"track","event":7}`), timestampMillis, "props.event"},
		{"ErrPropertiesType", valid(ms, `{"type":"track","event":"X","properties":[1]}`), timestampMillis, "props.properties"},
		{"ErrItemsType", valid(ms, `{"type":"track","event":"X","items":{}}`), timestampMillis, "props.items"},
		{"ErrAddressType", valid(ms, `{"type":"track","event":"X","address":{}}`), timestampMillis, "props.address"},
		{"ErrPropsTooLarge", valid(ms, `{"type":"track","event":"X","properties":{"x":"`+strings.Repeat("a", maxPropsBytes)+`"}}`), timestampMillis, "props"},
		{"ErrURLTooLong", strings.Replace(valid(ms, `{"type":"track","event":"X"}`), "https://dapp.example/x", strings.Repeat("u", maxURLBytes+1), 1), timestampMillis, "url"},
		{"ErrDomainTooLong", strings.Replace(valid(ms, `{"type":"track","event":"X"}`), `"dapp.example"`, `"`+strings.Repeat("d", maxURLBytes+1)+`"`, 1), timestampMillis, "domain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := parseEvent(json.RawMessage(tt.body), "", tt.kind, testNow)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("parseEvent: %v", err)
				}
				if e.ID != testUUID {
					t.Errorf("ID = %q, want lowercase %q", e.ID, testUUID)
				}
				return
			}
			ae := apperr.As(err)
			if ae == nil || ae.Code != apperr.Invalid || ae.Field != tt.field {
				t.Fatalf("err = %v, want invalid %s", err, tt.field)
			}
		})
	}
}

func TestParseBatch(t *testing.T) {
	ev := func(id, name string) string {
		return fmt.Sprintf(`{"eventId":%q,"url":"","domain":"","timestamp":%d,"props":{"type":"track","event":%q}}`, id, testNow.UnixMilli(), name)
	}
	t.Run("OK", func(t *testing.T) {
		events, err := parseBatch(json.RawMessage(`[`+ev(testUUID, "A")+`,`+ev(testUUID, "B")+`]`), testNow)
		if err != nil || len(events) != 2 || events[1].Name != "B" {
			t.Fatalf("parseBatch = %+v, %v", events, err)
		}
	})
	t.Run("OKEmpty", func(t *testing.T) {
		events, err := parseBatch(json.RawMessage(` []`), testNow)
		if err != nil || len(events) != 0 {
			t.Fatalf("parseBatch = %+v, %v", events, err)
		}
	})
	for _, tt := range []struct{ name, body, field string }{
		{"ErrObject", `{"eventId":"x"}`, "body"},
		{"ErrNull", `null`, "body"},
		{"ErrNullElement", `[null]`, "events[0]"},
		{"ErrThirdEvent", `[` + ev(testUUID, "A") + `,` + ev(testUUID, "B") + `,` + ev(testUUID, "bad") + `]`, "events[2].props.event"},
		{"ErrTooMany", `[` + strings.Repeat(ev(testUUID, "A")+",", maxBatchEvents) + ev(testUUID, "A") + `]`, "events"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseBatch(json.RawMessage(tt.body), testNow)
			if ae := apperr.As(err); ae == nil || ae.Field != tt.field {
				t.Fatalf("err = %v, want field %s", err, tt.field)
			}
		})
	}
}

// Both forms give the same instant; nonsense keeps each endpoint's message.
func TestParseTimestamp(t *testing.T) {
	want := time.Date(2026, 3, 10, 11, 59, 59, 123e6, time.UTC)
	for _, kind := range []timestampKind{timestampISO, timestampMillis} {
		for _, raw := range []string{`"2026-03-10T11:59:59.123Z"`, `"2026-03-10T12:59:59.123+01:00"`, fmt.Sprint(want.UnixMilli()), ` ` + fmt.Sprint(want.UnixMilli())} {
			if got, err := parseTimestamp(json.RawMessage(raw), "timestamp", kind); err != nil || !got.Equal(want) {
				t.Errorf("kind %d, %s: %v %v, want %v", kind, raw, got, err, want)
			}
		}
	}
	for kind, msg := range map[timestampKind]string{timestampISO: "timestamp must be an ISO 8601 date string", timestampMillis: "timestamp must be an integer of milliseconds since 1970"} {
		for _, raw := range []string{`"soon"`, `1.5`, `null`, `[1]`, ``} {
			_, err := parseTimestamp(json.RawMessage(raw), "timestamp", kind)
			if ae := apperr.As(err); ae == nil || ae.Message != msg {
				t.Errorf("kind %d, %q: %v, want %q", kind, raw, err, msg)
			}
		}
	}
}
