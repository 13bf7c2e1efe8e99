package indexer

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/evm"
	"github.com/latchkit/latch/internal/poll"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

var (
	wethABI      = contracts.MustLoad("WETH").ABI
	multicallABI = contracts.MustLoad("Multicall3").ABI
)

func eth(milli int64) *big.Int { return new(big.Int).Mul(big.NewInt(milli), big.NewInt(1e15)) }

// fixedPrices prices ether at 3000 and USDC at 1; nothing else.
func fixedPrices(usdc common.Address) PriceFunc {
	return func(_ context.Context, _ uint64, token *common.Address) (float64, bool) {
		switch {
		case token == nil:
			return 3000, true
		case *token == usdc:
			return 1, true
		}
		return 0, false
	}
}

// want describes an expected history entry.
type want struct {
	hash   common.Hash
	op     string
	failed bool
	moves  []wantMove
}

type wantMove struct {
	kind     Kind
	token    string // symbol, "" for native
	from, to common.Address
	amount   *big.Int
	price    float64 // 0: none
}

func history(t *testing.T, h *harness, addr common.Address) []Activity {
	t.Helper()
	var all []Activity
	var cur *Cursor
	for {
		page, err := h.store.History(context.Background(), h.tokens, h.chain.ChainID, addr, cur, 4)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, page.Items...)
		if page.Next == nil {
			return all
		}
		cur = page.Next
	}
}

func checkHistory(t *testing.T, h *harness, addr common.Address, wants []want) {
	t.Helper()
	got := history(t, h, addr)
	if len(got) != len(wants) {
		for _, g := range got {
			t.Logf("got %s %s block %d", g.Operation, g.Hash, g.Block)
		}
		t.Fatalf("%s: %d entries, want %d", addr, len(got), len(wants))
	}
	for i, w := range wants {
		g := got[i]
		if g.Hash != w.hash || g.Operation != w.op || g.Failed != w.failed {
			t.Errorf("%s entry %d: %s %s failed=%v, want %s %s failed=%v", addr, i, g.Hash, g.Operation, g.Failed, w.hash, w.op, w.failed)
			continue
		}
		block, err := h.client.BlockByHash(context.Background(), mustReceipt(t, h, g.Hash).BlockHash)
		if err != nil {
			t.Fatal(err)
		}
		if g.Block != block.NumberU64() || !g.Time.Equal(time.Unix(int64(block.Time()), 0)) {
			t.Errorf("entry %d: block %d at %v, want %d at %d", i, g.Block, g.Time, block.NumberU64(), block.Time())
		}
		tx := block.Transaction(g.Hash)
		if g.Nonce != tx.Nonce() || g.To == nil || *g.To != *tx.To() {
			t.Errorf("entry %d: nonce %d to %v, want %d %s", i, g.Nonce, g.To, tx.Nonce(), tx.To())
		}
		if len(g.Movements) != len(w.moves) {
			t.Errorf("entry %d (%s): %d movements, want %d: %+v", i, w.op, len(g.Movements), len(w.moves), g.Movements)
			continue
		}
		for j, wm := range w.moves {
			m := g.Movements[j]
			symbol := ""
			if m.Token != nil {
				symbol = m.Token.Symbol
			}
			price := 0.0
			if m.Price != nil {
				price = *m.Price
			}
			if m.Kind != wm.kind || symbol != wm.token || m.From != wm.from || m.To != wm.to || m.Amount.Cmp(wm.amount) != 0 || price != wm.price {
				t.Errorf("entry %d (%s) movement %d: %v %q %s→%s %s $%v, want %v %q %s→%s %s $%v", i, w.op, j,
					m.Kind, symbol, m.From, m.To, m.Amount, price, wm.kind, wm.token, wm.from, wm.to, wm.amount, wm.price)
			}
		}
	}
}

func mustReceipt(t *testing.T, h *harness, hash common.Hash) *types.Receipt {
	t.Helper()
	r, err := h.client.TransactionReceipt(context.Background(), hash)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// faucetEntries are the two funding transactions newWallet(eth, usdc) sent
// to w, newest first: the USDC mint, then the ether.
func faucetEntries(t *testing.T, h *harness, w common.Address, ethMilli, usdc int64) []want {
	t.Helper()
	got := history(t, h, w)
	if len(got) < 2 {
		t.Fatalf("no faucet entries for %s", w)
	}
	n := len(got)
	deployer := got[n-1].From
	return []want{
		{hash: got[n-2].Hash, op: OpMint, moves: []wantMove{{KindERC20, "USDC", common.Address{}, w, units(usdc, 6), 1}}},
		{hash: got[n-1].Hash, op: OpReceive, moves: []wantMove{{KindNative, "", deployer, w, eth(ethMilli), 3000}}},
	}
}

// What happened on the chain is what the history says, for both sides.
func TestIndexer_DevChain(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db)
		usdc, weth := h.token("USDC"), h.token("WETH")
		ix, _ := h.startIndexer(Config{Price: fixedPrices(usdc)}, Chain{})

		a := h.newWallet("10", "1000")
		b := h.newWallet("", "")
		r1 := h.send(a, b.addr, eth(1500), nil, 21_000)
		r2 := h.send(a, usdc, nil, pack("transfer", b.addr, big.NewInt(25_500_000)), 100_000)
		r3 := h.send(a, usdc, nil, pack("approve", b.addr, units(100, 6)), 100_000)
		r4 := h.send(a, usdc, nil, pack("transfer", b.addr, units(1_000_000_000, 6)), 100_000) // more than a holds
		if r4.Status != types.ReceiptStatusFailed {
			t.Fatal("the over-balance transfer did not fail")
		}
		deposit, _ := wethABI.Pack("deposit")
		r5 := h.send(a, weth, eth(500), deposit, 100_000)
		withdraw, _ := wethABI.Pack("withdraw", eth(200))
		r6 := h.send(a, weth, nil, withdraw, 100_000)
		getBlock, _ := multicallABI.Pack("getBlockNumber")
		r7 := h.send(a, h.chain.Multicall3, nil, getBlock, 100_000)
		r8 := h.send(a, a.addr, eth(1), nil, 21_000)
		h.waitIndexed(ix)

		wantA := []want{
			{hash: r8.TxHash, op: OpSend, moves: []wantMove{{KindNative, "", a.addr, a.addr, eth(1), 3000}}},
			{hash: r7.TxHash, op: OpExecute},
			{hash: r6.TxHash, op: OpWithdraw, moves: []wantMove{
				{KindERC20, "WETH", a.addr, weth, eth(200), 0},
				{KindNative, "", weth, a.addr, eth(200), 3000},
			}},
			{hash: r5.TxHash, op: OpDeposit, moves: []wantMove{
				{KindNative, "", a.addr, weth, eth(500), 3000},
				{KindERC20, "WETH", weth, a.addr, eth(500), 0},
			}},
			{hash: r4.TxHash, op: OpSend, failed: true},
			{hash: r3.TxHash, op: OpApprove, moves: []wantMove{{KindApproval, "USDC", a.addr, b.addr, units(100, 6), 0}}},
			{hash: r2.TxHash, op: OpSend, moves: []wantMove{{KindERC20, "USDC", a.addr, b.addr, big.NewInt(25_500_000), 1}}},
			{hash: r1.TxHash, op: OpSend, moves: []wantMove{{KindNative, "", a.addr, b.addr, eth(1500), 3000}}},
		}
		checkHistory(t, h, a.addr, append(wantA, faucetEntries(t, h, a.addr, 10_000, 1000)...))
		// The recipient sees the transfers, not the approval or the failed attempt.
		checkHistory(t, h, b.addr, []want{
			{hash: r2.TxHash, op: OpReceive, moves: []wantMove{{KindERC20, "USDC", a.addr, b.addr, big.NewInt(25_500_000), 1}}},
			{hash: r1.TxHash, op: OpReceive, moves: []wantMove{{KindNative, "", a.addr, b.addr, eth(1500), 3000}}},
		})
		// Balances learn which tokens an address received.
		toks, err := h.store.AccountTokens(context.Background(), h.chain.ChainID, a.addr)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(toks) != fmt.Sprint([]common.Address{usdc, weth}) && fmt.Sprint(toks) != fmt.Sprint([]common.Address{weth, usdc}) {
			t.Errorf("AccountTokens = %v, want USDC and WETH", toks)
		}
	})
}

// countTxs checks the store holds exactly the chain's transactions of blocks
// 0..head: none missing, none twice, and the progress right after head.
func countTxs(t *testing.T, h *harness, head uint64) {
	t.Helper()
	ctx := context.Background()
	want := 0
	for n := uint64(0); n <= head; n++ {
		b, err := h.client.BlockByNumber(ctx, new(big.Int).SetUint64(n))
		if err != nil {
			t.Fatal(err)
		}
		want += len(b.Transactions())
	}
	var got, distinct int
	if err := h.db.QueryRow(ctx, `SELECT COUNT(*) FROM chain_txs WHERE chain_id = ? AND block_number <= ?`, int64(h.chain.ChainID), int64(head)).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if err := h.db.QueryRow(ctx, `SELECT COUNT(DISTINCT hash) FROM chain_txs WHERE chain_id = ?`, int64(h.chain.ChainID)).Scan(&distinct); err != nil {
		t.Fatal(err)
	}
	if got != want || distinct != got {
		t.Fatalf("stored %d transactions (%d distinct) of blocks 0-%d, the chain has %d", got, distinct, head, want)
	}
	next, ok, err := h.store.Progress(ctx, h.chain.ChainID)
	if err != nil || !ok || next != head+1 {
		t.Fatalf("progress %d (%v, %v), want %d", next, ok, err, head+1)
	}
}

// upstreamProxy forwards JSON-RPC to the chain. When fail says so it answers
// 502 or drops the connection instead; a request that hold says to hold
// waits until its client gives up (or the test ends) and is never answered.
func upstreamProxy(t *testing.T, target string, fail func(n int64) bool, hold func(body []byte) bool) *httptest.Server {
	u, _ := url.Parse(target)
	rp := httputil.NewSingleHostReverseProxy(u)
	var n atomic.Int64
	released := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := n.Add(1)
		if hold != nil {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if hold(body) {
				select {
				case <-r.Context().Done():
				case <-released:
				}
				return
			}
		}
		if fail != nil && fail(i) {
			if i%2 == 0 {
				http.Error(w, "upstream down", http.StatusBadGateway)
				return
			}
			hj, _ := w.(http.Hijacker)
			conn, _, _ := hj.Hijack()
			conn.Close()
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(released) }) // runs first: held requests return, then the server closes
	return srv
}

// asksForBlocksFrom reports whether a JSON-RPC body (a call or a batch)
// reads a block numbered from or higher, by number: the block range a
// held upstream keeps from the indexer.
func asksForBlocksFrom(from uint64) func(body []byte) bool {
	return func(body []byte) bool {
		var calls []struct {
			Method string            `json:"method"`
			Params []json.RawMessage `json:"params"`
		}
		if json.Unmarshal(body, &calls) != nil {
			calls = calls[:0]
			var one struct {
				Method string            `json:"method"`
				Params []json.RawMessage `json:"params"`
			}
			if json.Unmarshal(body, &one) != nil {
				return false
			}
			calls = append(calls, one)
		}
		for _, c := range calls {
			if c.Method != "eth_getBlockByNumber" && c.Method != "eth_getBlockReceipts" || len(c.Params) == 0 {
				continue
			}
			var tag hexutil.Uint64
			if json.Unmarshal(c.Params[0], &tag) == nil && uint64(tag) >= from {
				return true
			}
		}
		return false
	}
}

// Stopping the indexer in the middle of a backfill and starting a new one
// on the same store continues where the first stopped: no gap, no duplicate.
func TestIndexer_RestartMidway(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db)
		a := h.newWallet("5", "")
		b := h.newWallet("", "")
		var sent []common.Hash
		for i := range 30 {
			sent = append(sent, h.send(a, b.addr, big.NewInt(int64(i+1)), nil, 21_000).TxHash)
		}
		head := h.head()

		// An upstream that never answers for the second half of the chain,
		// and small batches, so the first run stops half way.
		proxy := upstreamProxy(t, h.chain.RPCURL, nil, asksForBlocksFrom(head/2+3))
		ix, stop := h.startIndexer(Config{}, Chain{Client: h.rpcClient(proxy.URL), BatchSize: 2})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := ix.WaitIndexed(ctx, h.chain.ChainID, head/2); err != nil {
			t.Fatal(err)
		}
		stop()
		mid, _, _ := h.store.Progress(ctx, h.chain.ChainID)
		if mid > head {
			t.Fatalf("first run indexed everything (next %d, head %d); nothing to resume", mid, head)
		}
		t.Logf("stopped at block %d of %d", mid, head)

		// More blocks while it is stopped.
		for i := range 5 {
			sent = append(sent, h.send(a, b.addr, big.NewInt(int64(100+i)), nil, 21_000).TxHash)
		}
		ix2, _ := h.startIndexer(Config{}, Chain{BatchSize: 7})
		h.waitIndexed(ix2)
		countTxs(t, h, h.head())
		var wants []want
		for i := len(sent) - 1; i >= 0; i-- {
			wants = append(wants, want{hash: sent[i], op: OpReceive, moves: []wantMove{{KindNative, "", a.addr, b.addr, mustReceiptValue(t, h, sent[i]), 0}}})
		}
		checkHistory(t, h, b.addr, wants)
	})
}

func mustReceiptValue(t *testing.T, h *harness, hash common.Hash) *big.Int {
	tx, _, err := h.client.TransactionByHash(context.Background(), hash)
	if err != nil {
		t.Fatal(err)
	}
	return tx.Value()
}

// An upstream that fails a third of the time (502s and dropped connections)
// slows the indexer down but never makes it skip a block.
func TestIndexer_UpstreamErrors(t *testing.T) {
	db := storetest.MustOpenSQLite(t)
	h := newHarness(t, db)
	a := h.newWallet("5", "100")
	b := h.newWallet("", "")
	var sent []common.Hash
	for i := range 12 {
		sent = append(sent, h.send(a, h.token("USDC"), nil, pack("transfer", b.addr, big.NewInt(int64(i+1))), 100_000).TxHash)
	}
	proxy := upstreamProxy(t, h.chain.RPCURL, func(n int64) bool { return n%3 == 0 }, nil)
	ix, _ := h.startIndexer(Config{}, Chain{Client: h.rpcClient(proxy.URL), BatchSize: 3, PollInterval: 20 * time.Millisecond})
	h.waitIndexed(ix)
	countTxs(t, h, h.head())
	got := history(t, h, b.addr)
	if len(got) != len(sent) {
		t.Fatalf("%d entries, want %d", len(got), len(sent))
	}
	for i := range sent {
		if got[len(got)-1-i].Hash != sent[i] {
			t.Fatalf("entry %d is %s, want %s", i, got[len(got)-1-i].Hash, sent[i])
		}
	}
}

// A second upstream takes over when the first is down.
func TestClient_Failover(t *testing.T) {
	h := newHarness(t, storetest.MustOpenSQLite(t))
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer down.Close()
	c := h.rpcClient(down.URL, h.chain.RPCURL)
	hd, err := c.Header(context.Background(), 0, true)
	if err != nil {
		t.Fatal(err)
	}
	if uint64(hd.Number) != h.head() {
		t.Fatalf("head %d, want %d", hd.Number, h.head())
	}
	// A node's own error (a revert) is an answer: no failover, returned as is.
	_, err = c.CallContract(context.Background(), h.token("USDC"), pack("transfer", common.Address{1}, big.NewInt(1)))
	if err == nil || !strings.Contains(err.Error(), "revert") {
		t.Fatalf("reverting call: err = %v", err)
	}
}

// A reorg replaces indexed blocks: the rolled-back transfer leaves the
// history, the new chain's transactions enter it.
func TestIndexer_Reorg(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		h := newHarness(t, db)
		ix, _ := h.startIndexer(Config{}, Chain{PollInterval: 50 * time.Millisecond})
		a := h.newWallet("5", "")
		gone, kept := h.newWallet("", ""), h.newWallet("", "")
		r1 := h.send(a, gone.addr, eth(1000), nil, 21_000)
		r2 := h.send(a, gone.addr, eth(500), nil, 21_000)
		h.waitIndexed(ix)
		if n := len(history(t, h, gone.addr)); n != 2 {
			t.Fatalf("before the reorg: %d entries for the first recipient, want 2", n)
		}

		// Rewind to before r1 and build a different chain on it.
		base := r1.BlockNumber.Uint64() - 1
		if err := h.dev.Rollback(context.Background(), h.chain.CAIPNetworkID, base); err != nil {
			t.Fatal(err)
		}
		r3 := h.send(a, kept.addr, eth(700), nil, 21_000)
		if r3.BlockNumber.Uint64() != base+1 {
			t.Fatalf("new transaction in block %d, want %d", r3.BlockNumber, base+1)
		}
		// Wait for the indexer to see the replacement before the chain
		// grows past the old height.
		if !poll.Until(10*time.Second, nil, func() bool { return len(history(t, h, kept.addr)) > 0 }) {
			t.Fatal("the new chain's transfer never appeared")
		}
		r4 := h.send(a, kept.addr, eth(300), nil, 21_000)
		r5 := h.send(a, kept.addr, eth(200), nil, 21_000)
		h.waitIndexed(ix)

		if got := history(t, h, gone.addr); len(got) != 0 {
			t.Fatalf("rolled-back transfers still listed: %+v", got)
		}
		checkHistory(t, h, kept.addr, []want{
			{hash: r5.TxHash, op: OpReceive, moves: []wantMove{{KindNative, "", a.addr, kept.addr, eth(200), 0}}},
			{hash: r4.TxHash, op: OpReceive, moves: []wantMove{{KindNative, "", a.addr, kept.addr, eth(300), 0}}},
			{hash: r3.TxHash, op: OpReceive, moves: []wantMove{{KindNative, "", a.addr, kept.addr, eth(700), 0}}},
		})
		countTxs(t, h, h.head())
		if _, err := h.client.TransactionReceipt(context.Background(), r2.TxHash); err == nil {
			t.Fatal("the rolled-back transaction is on the chain")
		}
	})
}

// Paging with a cursor while new blocks are stored returns every entry that
// existed below the first page exactly once, in order.
func TestStore_HistoryPagingUnderInserts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		st := NewStore(db)
		tokens := NewTokens(st, nil)
		const chainID = 777
		addr := common.HexToAddress("0x00000000000000000000000000000000000000aa")
		other := common.HexToAddress("0x00000000000000000000000000000000000000bb")
		var mu sync.Mutex
		next := uint64(0)
		// addBlocks stores n blocks, each with two transactions involving addr
		// and one that does not.
		addBlocks := func(n int) {
			mu.Lock()
			defer mu.Unlock()
			var blocks []blockRecord
			for range n {
				b := blockRecord{Header: evm.Header{Number: hexutil.Uint64(next), Hash: common.BigToHash(big.NewInt(int64(next) + 1)), ParentHash: common.BigToHash(big.NewInt(int64(next)))}}
				for i := range 3 {
					from := addr
					if i == 2 {
						from = other
					}
					t := txRecord{Block: next, Index: uint32(i), Hash: common.BigToHash(big.NewInt(int64(next*10) + int64(i))), Time: 1_700_000_000 + next, From: from, To: &other, Value: big.NewInt(1)}
					t.Movements = []movement{{Kind: KindNative, From: from, To: other, Amount: big.NewInt(1)}}
					t.Parties = map[common.Address]string{from: OpSend, other: OpReceive}
					b.Txs = append(b.Txs, t)
				}
				blocks = append(blocks, b)
				next++
			}
			if err := st.save(context.Background(), chainID, blocks, ReorgWindow); err != nil {
				panic(err)
			}
		}
		addBlocks(60)

		stop := make(chan struct{})
		done := make(chan struct{})
		// added says a block was stored since the reader last looked, so
		// that every page is read after some insert.
		added := make(chan struct{}, 1)
		go func() {
			defer close(done)
			for {
				select {
				case <-stop:
					return
				default:
					addBlocks(1)
					select {
					case added <- struct{}{}:
					default:
					}
				}
			}
		}()
		var got []Activity
		var cur *Cursor
		for {
			page, err := st.History(context.Background(), tokens, chainID, addr, cur, 7)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, page.Items...)
			if page.Next == nil {
				break
			}
			cur = page.Next
			<-added
		}
		close(stop)
		<-done

		top := got[0]
		// Every entry of addr at or below the first one, from the store now.
		var all []Activity
		var c2 *Cursor
		for {
			page, err := st.History(context.Background(), tokens, chainID, addr, c2, 100)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, page.Items...)
			if page.Next == nil {
				break
			}
			c2 = page.Next
		}
		var want []Activity
		for _, a := range all {
			if a.Block < top.Block || (a.Block == top.Block && a.Index <= top.Index) {
				want = append(want, a)
			}
		}
		if len(got) != len(want) || len(want) < 120 {
			t.Fatalf("paged %d entries, want %d (≥ 120)", len(got), len(want))
		}
		for i := range want {
			if got[i].Hash != want[i].Hash || len(got[i].Movements) != 1 {
				t.Fatalf("entry %d: %s, want %s", i, got[i].Hash, want[i].Hash)
			}
			if i > 0 && !(got[i].Block < got[i-1].Block || got[i].Block == got[i-1].Block && got[i].Index < got[i-1].Index) {
				t.Fatalf("entry %d out of order", i)
			}
		}
	})
}

func TestParseCursor(t *testing.T) {
	for _, ok := range []string{"1-0-0", "1-123-4", "1-9223372036854775807-4294967295"} {
		c, err := ParseCursor(ok)
		if err != nil || c.String() != ok {
			t.Errorf("ParseCursor(%q) = %v, %v", ok, c, err)
		}
	}
	for _, bad := range []string{"", "1", "1-2", "2-1-1", "1--1-1", "1-a-1", "1-1-4294967296", "1-1-1-1", "1- 1-1", strings.Repeat("1", 50)} {
		if _, err := ParseCursor(bad); err == nil {
			t.Errorf("ParseCursor(%q) accepted", bad)
		}
	}
}
