package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/latchkit/latch/internal/apperr"
)

func TestCode(t *testing.T) {
	for app, want := range map[string]int{
		apperr.Invalid:      CodeInvalidParams,
		apperr.Unauthorized: CodeRefused,
		apperr.Forbidden:    CodeRefused,
		apperr.NotFound:     CodeNotFound,
		apperr.Conflict:     CodeRefused,
		apperr.TooLarge:     CodeInvalidRequest,
		apperr.Unsupported:  CodeInvalidRequest,
		apperr.RateLimited:  CodeLimitExceeded,
		apperr.Unavailable:  CodeUnavailable,
		apperr.Internal:     CodeInternal,
		"something_new":     CodeInternal,
	} {
		if got := Code(app); got != want {
			t.Errorf("Code(%q) = %d, want %d", app, got, want)
		}
	}
}

func TestFromError(t *testing.T) {
	t.Run("AppErr", func(t *testing.T) {
		e := FromError(apperr.Errorf(apperr.NotFound, "Project not found"))
		if e.Code != CodeNotFound || e.Message != "Project not found" || e.Data != nil {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("Field", func(t *testing.T) {
		e := FromError(apperr.Fieldf(apperr.Invalid, "chainId", "Chain id is required"))
		if e.Code != CodeInvalidParams || e.Message != "Chain id is required" || string(e.Data) != `{"field":"chainId"}` {
			t.Fatalf("%+v %s", e, e.Data)
		}
	})
	t.Run("Internal", func(t *testing.T) {
		e := FromError(errors.New("dial tcp 10.0.0.1: secret detail"))
		if e.Code != CodeInternal || e.Message != "Internal error" {
			t.Fatalf("%+v", e)
		}
	})
}

func TestAppendError(t *testing.T) {
	for _, tc := range []struct {
		name string
		id   json.RawMessage
		err  *Error
		want string
	}{
		{"NullID", nil, &Error{Code: CodeParseError, Message: "Parse error"}, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
		{"NumberID", json.RawMessage(`7`), &Error{Code: CodeInvalidParams, Message: "x"}, `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"x"}}`},
		{"BigID", json.RawMessage(`123456789012345678901234567890`), &Error{Code: CodeInternal, Message: "x"}, `{"jsonrpc":"2.0","id":123456789012345678901234567890,"error":{"code":-32603,"message":"x"}}`},
		{"StringIDAndData", json.RawMessage(`"a\"b"`), &Error{Code: CodeTooManyRequests, Message: "slow down", Data: StringData("TooManyRequests")}, `{"jsonrpc":"2.0","id":"a\"b","error":{"code":3001,"message":"slow down","data":"TooManyRequests"}}`},
		{"Escapes", json.RawMessage(`1`), &Error{Code: CodeMethodNotFound, Message: "method \"<x>\"\n\t\x01\u2028"}, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method \"<x>\"\n\t\u0001\u2028"}}`},
		{"InvalidUTF8", json.RawMessage(`1`), &Error{Code: CodeInternal, Message: "a\xffb"}, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"a\ufffdb"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := string(AppendError(nil, tc.id, tc.err))
			if got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
			if !json.Valid([]byte(got)) {
				t.Fatal("not valid JSON")
			}
		})
	}
}

func TestAppendResult(t *testing.T) {
	if got := string(AppendResult(nil, json.RawMessage(`"x"`), json.RawMessage(`true`))); got != `{"jsonrpc":"2.0","id":"x","result":true}` {
		t.Fatal(got)
	}
	if got := string(AppendResult(nil, nil, nil)); got != `{"jsonrpc":"2.0","id":null,"result":null}` {
		t.Fatal(got)
	}
	if got := string(AppendRawError(nil, json.RawMessage(`2`), json.RawMessage(`{"code":3,"message":"execution reverted"}`))); got != `{"jsonrpc":"2.0","id":2,"error":{"code":3,"message":"execution reverted"}}` {
		t.Fatal(got)
	}
}

func TestAppendError_NoAllocation(t *testing.T) {
	e := &Error{Code: CodeInvalidParams, Message: "Invalid params: topic is required", Data: StringData("InvalidParams")}
	buf := make([]byte, 0, 512)
	if n := testing.AllocsPerRun(100, func() { _ = AppendError(buf[:0], json.RawMessage(`1`), e) }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}

func TestRequestIDs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		body  string
		ids   []string // "" for nil
		batch bool
	}{
		{"Single", `{"jsonrpc":"2.0","id":7,"method":"eth_chainId"}`, []string{"7"}, false},
		{"SingleStringID", ` {"id":"abc","method":"x"} `, []string{`"abc"`}, false},
		{"SingleNullID", `{"id":null,"method":"x"}`, []string{"null"}, false},
		{"SingleNotification", `{"jsonrpc":"2.0","method":"x"}`, []string{""}, false},
		{"SingleObjectID", `{"id":{"a":1},"method":"x"}`, []string{""}, false},
		{"NotJSON", `{"id":1,`, []string{""}, false},
		{"Empty", ``, []string{""}, false},
		{"EmptyBatch", `[]`, []string{""}, false},
		{"Scalar", `12`, []string{""}, false},
		{"Batch", `[{"id":1,"method":"a"},{"method":"notify"},1,{"id":"x"},{"id":[1]},{"id":1.50}]`, []string{"1", "", `"x"`, "", "1.50"}, true},
		{"BatchOfNotifications", `[{"method":"a"},{"method":"b"}]`, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ids, batch := RequestIDs([]byte(tc.body))
			if batch != tc.batch || len(ids) != len(tc.ids) {
				t.Fatalf("ids %q batch %v, want %q %v", ids, batch, tc.ids, tc.batch)
			}
			for i, id := range ids {
				if string(id) != tc.ids[i] || (tc.ids[i] == "" && id != nil) {
					t.Fatalf("ids[%d] = %q, want %q", i, id, tc.ids[i])
				}
			}
		})
	}
}

// reply is one decoded error response.
type reply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *Error          `json:"error"`
}

// replies decodes a single answer or a batch of answers.
func replies(t *testing.T, body string) []reply {
	t.Helper()
	if !strings.HasPrefix(body, "[") {
		body = "[" + body + "]"
	}
	var out []reply
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return out
}

func TestWriteHTTPErrors(t *testing.T) {
	e := &Error{Code: CodeRefused, Message: "no"}
	t.Run("Single", func(t *testing.T) {
		w := httptest.NewRecorder()
		WriteHTTPErrors(w, http.StatusForbidden, []byte(`{"jsonrpc":"2.0","id":"q","method":"eth_chainId"}`), e)
		if w.Code != http.StatusForbidden || w.Header().Get("Content-Type") != "application/json" {
			t.Fatalf("status %d %v", w.Code, w.Header())
		}
		if got := w.Body.String(); got != `{"jsonrpc":"2.0","id":"q","error":{"code":-32000,"message":"no"}}` {
			t.Fatal(got)
		}
	})
	t.Run("Batch", func(t *testing.T) {
		w := httptest.NewRecorder()
		WriteHTTPErrors(w, http.StatusForbidden, []byte(`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":"2","method":"b"}]`), e)
		rs := replies(t, w.Body.String())
		if len(rs) != 2 || string(rs[0].ID) != "1" || string(rs[1].ID) != `"2"` {
			t.Fatalf("body %s", w.Body)
		}
		for _, r := range rs {
			if r.JSONRPC != "2.0" || r.Error == nil || r.Error.Code != CodeRefused || r.Error.Message != "no" || r.Error.Data != nil {
				t.Fatalf("body %s", w.Body)
			}
		}
	})
	t.Run("OnlyNotifications", func(t *testing.T) {
		w := httptest.NewRecorder()
		WriteHTTPErrors(w, http.StatusForbidden, []byte(`[{"jsonrpc":"2.0","method":"n"}]`), e)
		if got := w.Body.String(); got != `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"no"}}` {
			t.Fatal(got)
		}
	})
}

func TestWriteRateLimited(t *testing.T) {
	for _, tc := range []struct {
		after time.Duration
		want  string
	}{{0, "1"}, {300 * time.Millisecond, "1"}, {time.Second, "1"}, {2500 * time.Millisecond, "3"}, {time.Minute, "60"}} {
		w := httptest.NewRecorder()
		WriteRateLimited(w, []byte(`{"jsonrpc":"2.0","id":5,"method":"eth_chainId"}`), tc.after, "too many RPC requests for this project")
		if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != tc.want {
			t.Fatalf("%v: status %d Retry-After %q, want %s", tc.after, w.Code, w.Header().Get("Retry-After"), tc.want)
		}
		want := `{"jsonrpc":"2.0","id":5,"error":{"code":-32005,"message":"Rate limit exceeded: too many RPC requests for this project; retry in ` + tc.want + ` s","data":{"retryAfter":` + tc.want + `}}}`
		if got := w.Body.String(); got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	}
}

func FuzzRequestIDs(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}`,
		`[{"id":"a"},{"method":"n"},3,{"id":null},{"id":{}}]`,
		`[]`, `nope`, `{"id":1e999}`, ` [ {"id" : -0.5e+3 } ] `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		ids, batch := RequestIDs(body)
		if !batch && len(ids) != 1 {
			t.Fatalf("single body gave %d ids", len(ids))
		}
		for _, id := range ids {
			if id == nil {
				continue
			}
			var v any
			dec := json.NewDecoder(bytes.NewReader(id))
			dec.UseNumber() // 1e999 is a valid id, not a float64
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("id %q is not JSON", id)
			}
			switch v.(type) {
			case string, json.Number, nil:
			default:
				t.Fatalf("id %q is not a string, number or null", id)
			}
		}
		// Whatever the body, the answer is valid JSON.
		w := httptest.NewRecorder()
		WriteHTTPErrors(w, http.StatusTooManyRequests, body, &Error{Code: CodeLimitExceeded, Message: "x"})
		if !json.Valid(w.Body.Bytes()) {
			t.Fatalf("answer %s", w.Body)
		}
	})
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "quote\" back\\slash", "\x00\x1f\x7f", "caf\u00e9 \u2028\u2029", "bad \xff\xfe utf8", "<&>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := AppendString(nil, s)
		var got string
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%q encoded as %s: %v", s, b, err)
		}
		want := strings.ToValidUTF8(s, "\ufffd")
		if !utf8.ValidString(s) {
			// encoding/json replaces each invalid byte, ToValidUTF8 each run.
			var std string
			raw, _ := json.Marshal(s)
			_ = json.Unmarshal(raw, &std)
			want = std
		}
		if got != want {
			t.Fatalf("%q round-tripped to %q, want %q", s, got, want)
		}
	})
}
