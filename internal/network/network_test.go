package network

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/latchkit/latch/data"
)

func TestLoad(t *testing.T) {
	r, err := Load(data.Networks)
	if err != nil {
		t.Fatal(err)
	}
	if n := r.Get("eip155:1"); n == nil || n.Name != "Ethereum" || n.NativeCurrency.Decimals != 18 {
		t.Fatalf("eip155:1 = %+v", n)
	}
	if len(r.All()) != 28 {
		t.Fatalf("got %d networks, want 28", len(r.All()))
	}
	if got := r.Supported(); len(got) != 0 {
		t.Fatalf("no upstreams configured, yet supported = %v", got)
	}
}

func TestLoad_Errors(t *testing.T) {
	for name, raw := range map[string]string{
		"BadJSON":      `[`,
		"BadCAIP":      `[{"caipNetworkId":"eip155","chainNamespace":"eip155","name":"x"}]`,
		"NamespaceMix": `[{"caipNetworkId":"eip155:1","chainNamespace":"solana","name":"x"}]`,
		"NoName":       `[{"caipNetworkId":"eip155:1","chainNamespace":"eip155","name":" "}]`,
		"Duplicate":    `[{"caipNetworkId":"eip155:1","chainNamespace":"eip155","name":"a"},{"caipNetworkId":"eip155:1","chainNamespace":"eip155","name":"b"}]`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Load([]byte(raw)); err == nil {
				t.Fatal("want error")
			}
		})
	}
}

func TestUpstreamsAndSupportedChains(t *testing.T) {
	r, _ := Load(data.Networks)
	id, urls, err := ParseUpstreamFlag("eip155:10=http://127.0.0.1:1, http://127.0.0.1:2")
	if err != nil || id != "eip155:10" || len(urls) != 2 || urls[1] != "http://127.0.0.1:2" {
		t.Fatalf("ParseUpstreamFlag = %q %v %v", id, urls, err)
	}
	if err := r.SetUpstreams(id, urls); err != nil {
		t.Fatal(err)
	}
	if err := r.SetUpstreams("eip155:999999", urls); err == nil {
		t.Fatal("unknown network accepted")
	}
	if err := r.SetUpstreams("eip155:1", []string{"ftp://x"}); err == nil {
		t.Fatal("ftp upstream accepted")
	}
	for _, bad := range []string{"eip155:1", "eip155:1=", "nope=http://x"} {
		if _, _, err := ParseUpstreamFlag(bad); err == nil {
			t.Fatalf("ParseUpstreamFlag(%q) accepted", bad)
		}
	}
	rec := httptest.NewRecorder()
	r.HandleSupportedChains(rec, httptest.NewRequest("GET", "/v1/supported-chains", nil))
	var body struct{ HTTP, WS []string }
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if len(body.HTTP) != 1 || body.HTTP[0] != "eip155:10" || body.WS == nil || len(body.WS) != 0 {
		t.Fatalf("body = %s", rec.Body)
	}

	// WebSocket upstreams: ws or wss only; listed under ws.
	if err := r.SetWSUpstreams("eip155:10", []string{"http://127.0.0.1:1"}); err == nil || !strings.Contains(err.Error(), "not a ws or wss URL") {
		t.Fatalf("an http WebSocket upstream: %v", err)
	}
	if err := r.SetWSUpstreams("eip155:999999", []string{"ws://x"}); err == nil {
		t.Fatal("unknown network accepted")
	}
	if err := r.SetWSUpstreams("eip155:10", []string{"wss://node.example/ws"}); err != nil {
		t.Fatal(err)
	}
	if got := r.WSUpstreams("eip155:10"); len(got) != 1 || got[0] != "wss://node.example/ws" {
		t.Fatalf("WSUpstreams = %q", got)
	}
	rec = httptest.NewRecorder()
	r.HandleSupportedChains(rec, httptest.NewRequest("GET", "/v1/supported-chains", nil))
	if got := rec.Body.String(); got != `{"http":["eip155:10"],"ws":["eip155:10"]}`+"\n" {
		t.Fatalf("body = %s", got)
	}
}

func TestRegistry_Find(t *testing.T) {
	r, err := Load(data.Networks)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"eip155:1": "Ethereum", "1": "Ethereum", "eip155:137": "Polygon"} {
		if n := r.Find(id); n == nil || n.Name != want {
			t.Errorf("Find(%q) = %+v, want %s", id, n, want)
		}
	}
	for _, n := range r.All() {
		if n.ID[0] == '"' {
			unquoted := strings.Trim(string(n.ID), `"`)
			if got := r.Find(unquoted); got != n {
				t.Errorf("Find(%q) = %+v, want %s", unquoted, got, n.CAIPNetworkID)
			}
		}
	}
	for _, id := range []string{"", "eip155:999999999", "999999999", "x"} {
		if n := r.Find(id); n != nil {
			t.Errorf("Find(%q) = %s, want nil", id, n.CAIPNetworkID)
		}
	}
}
