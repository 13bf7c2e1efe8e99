package bundler_test

import (
	"bytes"
	"context"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/jsonrpc"
	"github.com/latchkit/latch/internal/metrics"
	"github.com/latchkit/latch/internal/store/storetest"
)

// tracingNode is the dev chain's node, counting the traces the bundler asks
// for. With refuse, it is an operator's node without the debug API (no
// --http.api debug): debug_traceCall reaches the node under a method name
// it does not serve, so the refusal is the node's own answer. (Older nodes
// without erc7562Tracer answer differently; see TestCannotTrace.)
type tracingNode struct {
	bundler.Node
	refuse bool
	traces atomic.Int32
}

func (u *tracingNode) Call(ctx context.Context, result any, method string, args ...any) error {
	if method == "debug_traceCall" {
		u.traces.Add(1)
		if u.refuse {
			method = "debug_traceCallUnavailable"
		}
	}
	return u.Node.Call(ctx, result, method, args...)
}

// syncBuffer is a log destination the test reads while the service writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// On a network whose node cannot trace, ERC-7562's rules cannot be checked:
// by default (accept) operations are validated by simulation alone, a
// warning says so once, and the node is asked again after ten minutes;
// with refuse, every operation is refused with a message saying why.
func TestService_UntracedNetwork(t *testing.T) {
	t.Run("Accept", func(t *testing.T) {
		var logs syncBuffer
		node := &tracingNode{refuse: true}
		h := newHarness(t, storetest.MustOpenSQLite(t), func(c *bundler.Config) {
			node.Node = c.Networks[0].Node
			c.Networks[0].Node = node
			c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
		})
		h.now = time.Now()
		// Reads TIMESTAMP: refused where the rules are checked (TestService_ValidationRules).
		for range 2 {
			if _, rerr := h.send(h.rulesOp(h.rulesAccountAt(ruleTimestamp, common.Address{}))); rerr != nil {
				t.Fatalf("untraced, accept: %+v", rerr)
			}
		}
		if n := strings.Count(logs.String(), "cannot trace validation"); n != 1 || node.traces.Load() != 1 {
			t.Fatalf("%d warnings, %d traces; want 1 and 1:\n%s", n, node.traces.Load(), logs.String())
		}
		h.now = h.now.Add(10 * time.Minute)
		if _, rerr := h.send(h.rulesOp(h.rulesAccountAt(ruleTimestamp, common.Address{}))); rerr != nil || node.traces.Load() != 2 {
			t.Fatalf("ten minutes on: %+v, %d traces; want the node asked again", rerr, node.traces.Load())
		}
	})
	t.Run("Refuse", func(t *testing.T) {
		h := newHarness(t, storetest.MustOpenSQLite(t), func(c *bundler.Config) {
			c.Networks[0].Node = &tracingNode{Node: c.Networks[0].Node, refuse: true}
			c.Untraced = bundler.UntracedRefuse
		})
		op := h.rulesOp(h.rulesAccountAt(ruleNone, common.Address{}))
		_, rerr := h.send(op)
		wantCode(t, rerr, jsonrpc.CodeUnavailable)
		if !strings.Contains(rerr.Message, "cannot trace their validation") {
			t.Fatalf("message %q", rerr.Message)
		}
		h.mustNotStored(op.Hash(chain.EntryPoint, chain.ChainID))
	})
	t.Run("BadPolicy", func(t *testing.T) {
		if _, err := bundler.New(bundler.Config{Store: bundler.NewStore(storetest.MustOpenSQLite(t)), Untraced: "sometimes"}); err == nil {
			t.Fatal("an unknown Untraced policy was accepted")
		}
	})
}

// Below the bundler key's floor (NetworkConfig.MinBalance) new operations
// are refused with a message saying why and the metric counts the
// network; once the key is funded above it (read again after ten seconds)
// they are accepted. The default floor is one full bundle at twice the
// base fee, which the dev key holds.
func TestService_BundlerKeyFloor(t *testing.T) {
	reg := metrics.NewRegistry()
	var floor *big.Int
	h := newHarness(t, storetest.MustOpenSQLite(t), func(c *bundler.Config) {
		c.Metrics = reg
		c.Networks[0].MinBalance = floor
	})
	h.now = time.Now()
	gauge := func() string {
		var b bytes.Buffer
		reg.WriteText(&b)
		for _, line := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(line, "latch_bundler_key_balance_low ") {
				return strings.TrimPrefix(line, "latch_bundler_key_balance_low ")
			}
		}
		return "missing"
	}
	if _, rerr := h.send(h.rulesOp(h.rulesAccountAt(ruleNone, common.Address{}))); rerr != nil || gauge() != "0" {
		t.Fatalf("default floor: %+v, gauge %s", rerr, gauge())
	}

	bundlerKey := h.bundlerAddress()
	floor = new(big.Int).Add(h.balance(bundlerKey), big.NewInt(1e18))
	reg = metrics.NewRegistry()
	h = newHarness(t, storetest.MustOpenSQLite(t), func(c *bundler.Config) {
		c.Metrics = reg
		c.Networks[0].MinBalance = floor
	})
	h.now = time.Now()
	op := h.rulesOp(h.rulesAccountAt(ruleNone, common.Address{}))
	_, rerr := h.send(op)
	wantCode(t, rerr, jsonrpc.CodeUnavailable)
	if !strings.Contains(rerr.Message, "takes no new operations for now: its key holds") || !strings.Contains(rerr.Message, floor.String()+" wei it keeps to pay for bundles") {
		t.Fatalf("message %q", rerr.Message)
	}
	h.mustNotStored(op.Hash(chain.EntryPoint, chain.ChainID))
	if gauge() != "1" {
		t.Fatalf("gauge %s, want 1", gauge())
	}
	before := h.balance(bundlerKey)
	h.transact(&bundlerKey, big.NewInt(2e18), nil)
	if h.balance(bundlerKey).Cmp(before) <= 0 {
		t.Fatal("the bundler key was not funded")
	}
	h.now = h.now.Add(11 * time.Second)
	if _, rerr := h.send(op); rerr != nil || gauge() != "0" {
		t.Fatalf("funded: %+v, gauge %s", rerr, gauge())
	}
}
