package relay

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// FuzzFastPaths checks the single-pass decoders against encoding/json: what
// they accept, encoding/json must accept and decode to the same values.
// `go test` runs the seeds; `go test -fuzz FuzzFastPaths` explores.
func FuzzFastPaths(f *testing.F) {
	topic := strings.Repeat("ab", 32)
	for _, seed := range []string{
		`{"id":1,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"` + topic + `"}}`,
		`{"id":"1700000000000000001","jsonrpc":"2.0","method":"irn_publish","params":{"topic":"` + topic + `","message":"eA==","ttl":300,"tag":1108,"prompt":true}}`,
		` { "jsonrpc" : "2.0" , "id" : -1.5e3 , "method" : null , "result" : [ true , false , null , { } , [ ] ] } `,
		`{"id":"5n","jsonrpc":"2.0","result":true}`,
		`{"id":99,"jsonrpc":"2.0","error":{"code":1,"message":"no \"quoted\" \u00e9"}}`,
		`{"ID":1,"jsonrpc":"2.0","method":"x"}`,
		`{"id":1,"jsonrpc":"2.0","method":"x","method":null}`,
		`{"id":01,"jsonrpc":"2.0","method":"x"}`,
		`{"id":1,"jsonrpc":"2.0","method":"x",}`,
		`{"id":1,"jsonrpc":"2.0","method":"caf\u00e9"}`,
		`{"id":1,"jsonrpc":"2.0","method":"x"} x`,
		`{"topic":"` + topic + `","message":"eA==","ttl":300,"tag":1108,"attestation":"a.b.c"}`,
		`{"topic":null,"message":null,"ttl":null,"tag":null,"attestation":null}`,
		`{"topic":"a","topic":null,"ttl":1e400,"tag":-1}`,
		`{"ttl":1.5,"tag":4294967296}`,
		`{"TTL":1}`,
		`{"message":"\ud800"}`,
		`[1,2]`, `null`, `"s"`, `{}`, ``, "\xff", `{"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var env envelope
		if parseEnvelopeFast(data, &env) {
			var want envelope
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatalf("fast path accepted %q, encoding/json: %v", data, err)
			}
			if env.JSONRPC != want.JSONRPC || !reflect.DeepEqual(env.Method, want.Method) ||
				!bytes.Equal(env.ID, want.ID) || !bytes.Equal(env.Params, want.Params) ||
				!bytes.Equal(env.Result, want.Result) || !bytes.Equal(env.Error, want.Error) {
				t.Fatalf("%q: fast %+v, encoding/json %+v", data, env, want)
			}
		}
		if spans, ok := parsePublishFast(data); ok {
			var want publishParams
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatalf("fast path accepted params %q, encoding/json: %v", data, err)
			}
			if p := spans.params(string(data)); !reflect.DeepEqual(p, want) {
				t.Fatalf("%q: fast %+v, encoding/json %+v", data, p, want)
			}
		}
	})
}

func TestFastPaths_TakeTheCommonFrames(t *testing.T) {
	topic := strings.Repeat("ab", 32)
	for _, frame := range []string{
		`{"id":1700000000000000001,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"` + topic + `","message":"eA==","ttl":300,"tag":1108,"prompt":true}}`,
		`{"id":"1700000000000000002n","jsonrpc":"2.0","result":true}`,
	} {
		var env envelope
		if !parseEnvelopeFast([]byte(frame), &env) {
			t.Fatalf("fast path declined %s", frame)
		}
		if env.Method != nil {
			if _, ok := parsePublishFast(env.Params); !ok {
				t.Fatalf("fast path declined params %s", env.Params)
			}
		}
	}
	var env envelope
	if parseEnvelopeFast([]byte(`{"id":1,"Method":"x","jsonrpc":"2.0"}`), &env) {
		t.Fatal("a key encoding/json matches case-insensitively was not left to it")
	}
}

func BenchmarkParsePublish(b *testing.B) {
	frame := []byte(`{"id":1700000000000000001,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"` + strings.Repeat("ab", 32) + `","message":"` + strings.Repeat("QUJD", 300) + `","ttl":300,"tag":1108,"prompt":true}}`)
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var env envelope
			parseEnvelopeFast(frame, &env)
			parsePublishFast(env.Params)
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var env envelope
			json.Unmarshal(frame, &env)
			var p publishParams
			json.Unmarshal(env.Params, &p)
		}
	})
}

// The answers a socket writes (a result, an error, a delivery) are built in
// a pooled buffer: no allocation per message.
func TestAnswers_NoAllocation(t *testing.T) {
	id := json.RawMessage(`"1700000000000000001"`)
	m := &Message{Topic: strings.Repeat("ab", 32), Message: strings.Repeat("QUJD", 300), PublishedAt: 1700000000000, Tag: 1108}
	buf := make([]byte, 0, 4096)
	for name, fn := range map[string]func(){
		"result":       func() { _ = appendResponse(buf[:0], id, resultTrue) },
		"error":        func() { _ = appendError(buf[:0], id, errStorage) },
		"subscription": func() { _ = appendSubscription(buf[:0], 7, m.Topic, m) },
	} {
		if n := testing.AllocsPerRun(100, fn); n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
}

func BenchmarkAnswers(b *testing.B) {
	id := json.RawMessage(`"1700000000000000001"`)
	m := &Message{Topic: strings.Repeat("ab", 32), Message: strings.Repeat("QUJD", 300), PublishedAt: 1700000000000, Tag: 1108}
	buf := make([]byte, 0, 4096)
	b.Run("result", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = appendResponse(buf[:0], id, resultTrue)
		}
	})
	b.Run("error", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = appendError(buf[:0], id, errStorage)
		}
	})
	b.Run("subscription", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = appendSubscription(buf[:0], 7, m.Topic, m)
		}
	})
}

// params are the spans as encoding/json would decode raw (for tests).
func (p publishSpans) params(raw string) publishParams {
	str := func(sp span) *string {
		if !sp.set {
			return nil
		}
		v := raw[sp.start:sp.end]
		return &v
	}
	out := publishParams{Topic: str(p.topic), Message: str(p.message), Tag: p.tag}
	if p.hasTTL {
		ttl := p.ttl
		out.TTL = &ttl
	}
	if a := str(p.attestation); a != nil {
		out.Attestation = *a
	}
	return out
}
