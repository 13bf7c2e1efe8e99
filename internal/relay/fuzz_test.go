package relay_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/relay"
)

// FuzzServer_Frame sends arbitrary frames to a relay socket. Whatever the
// (UTF-8) frame, the relay must answer with well-formed JSON-RPC (the test
// client fails on anything else), keep the socket open, and still answer the
// next request; a text frame that is not UTF-8 closes its socket with 1007
// (RFC 6455 §8.1). `go test` runs the seeds; `go test -fuzz FuzzServer_Frame`
// explores.
func FuzzServer_Frame(f *testing.F) {
	topic := strings.Repeat("ab", 32)
	for _, seed := range []string{
		`{"id":1,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"` + topic + `"}}`,
		`{"id":"1700000000000000001","jsonrpc":"2.0","method":"irn_publish","params":{"topic":"` + topic + `","message":"eA==","ttl":300,"tag":1108,"prompt":true}}`,
		`{"id":2,"jsonrpc":"2.0","method":"irn_batchPublish","params":{"messages":[{"topic":"` + topic + `","message":"eQ==","ttl":300}]}}`,
		`{"id":3,"jsonrpc":"2.0","method":"irn_batchSubscribe","params":{"topics":["` + topic + `"]}}`,
		`{"id":4,"jsonrpc":"2.0","method":"irn_unsubscribe","params":{"topic":"` + topic + `","id":"x"}}`,
		`{"id":5,"jsonrpc":"2.0","method":"irn_batchUnsubscribe","params":{"subscriptions":[{"topic":"` + topic + `"}]}}`,
		`{"id":6,"jsonrpc":"2.0","method":"irn_fetchMessages","params":{"topic":"` + topic + `"}}`,
		`{"id":7,"jsonrpc":"2.0","method":"irn_batchFetchMessages","params":{"topics":["` + topic + `"]}}`,
		`{"id":8,"jsonrpc":"2.0","method":"wc_proposeSession","params":{"pairingTopic":"` + topic + `","sessionProposal":"cA==","ttl":300}}`,
		`{"id":9,"jsonrpc":"2.0","method":"wc_approveSession","params":{"sessionTopic":"` + topic + `","pairingTopic":"` + topic + `","sessionProposalResponse":"cg==","sessionSettlementRequest":"cw=="}}`,
		`{"id":"5n","jsonrpc":"2.0","result":true}`,
		`{"id":99,"jsonrpc":"2.0","error":{"code":1,"message":"no"}}`,
		`{"id":10,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"` + topic + `","message":"\ud800","ttl":1e400}}`,
		`{"id":11,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"` + topic + `","message":"x","ttl":-5,"tag":1.5}}`,
		`{"id":[],"jsonrpc":"2.0","method":"irn_subscribe"}`,
		`{"id":null,"jsonrpc":"2.0","method":"irn_subscribe","params":null}`,
		`[1,2,3]`, `null`, `"str"`, `{}`, ``, "\xff\xfe", `{"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"` + topic + `"}}`,
	} {
		f.Add(seed)
	}
	srv := newTestServer(f, withLimits(relay.Limits{PublishRate: -1}))
	c := dial(f, connectURL(srv.url, newIdentity(f), srv.url))
	probe := 0
	f.Fuzz(func(t *testing.T, frame string) {
		if !utf8.ValidString(frame) {
			bad := dial(t, connectURL(srv.url, newIdentity(t), srv.url))
			bad.send(frame)
			if err := bad.waitClosed(5 * time.Second); websocket.CloseStatus(err) != websocket.StatusInvalidFramePayloadData {
				t.Fatalf("invalid UTF-8 %q: closed with %v, want 1007", frame, err)
			}
			return
		}
		c.t = t
		c.send(frame)
		probe++
		id := fmt.Sprintf(`"probe-%d"`, probe)
		answer := c.callRaw(id, `{"id":`+id+`,"jsonrpc":"2.0","method":"irn_fetchMessages","params":{"topic":"`+strings.Repeat("cd", 32)+`"}}`)
		var res struct {
			Messages []json.RawMessage `json:"messages"`
		}
		if answer.Error != nil || json.Unmarshal(answer.Result, &res) != nil {
			t.Fatalf("probe after %q answered %s", frame, answer.Raw)
		}
		select {
		case <-c.closed:
			t.Fatalf("socket closed after %q: %v (status %d)", frame, c.closeErr, websocket.CloseStatus(c.closeErr))
		default:
		}
	})
}
