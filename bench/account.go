package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math/big"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/devnet"
	"github.com/latchkit/latch/internal/evm"
	"github.com/latchkit/latch/internal/indexer"
	"github.com/latchkit/latch/internal/store"
)

// historyTransfers is how many transfers the measured address receives.
const historyTransfers = 10_000

// benchAccount measures the account-data API of `latchd dev` — history of an
// address with 10,000 transfers (first page and deep pages), balances warm
// (cached) and cold (a Multicall3 read of the dev chain each time) — on
// SQLite and, when LATCH_TEST_POSTGRES is set, on Postgres; then the
// indexer's backfill throughput on a dev chain.
func benchAccount(report *strings.Builder, latchd string) {
	fmt.Fprintf(report, "\n## Account data: history, balances, indexer\n\n")
	fmt.Fprintf(report, "History of one address that received %d USDC transfers (10,000 transactions from 9 dev accounts), GET /v1/account/{address}/history, 50 entries a page; ", historyTransfers)
	fmt.Fprintf(report, "\"first page\" has no cursor, \"deep pages\" use cursors spread over the whole history. Balance: GET /v1/account/{address}/balance, \"warm\" asks for the same address (30 s cache), \"cold\" for a new address each time (one Multicall3 eth_call to the dev chain: coin + 3 tokens). Closed loop, 2,000 requests per row after warm-up.\n\n")
	fmt.Fprintf(report, "| database | request | clients | p50 | p99 | max | throughput |\n|---|---|---|---|---|---|---|\n")

	backends := []struct{ name, url string }{{"SQLite", ""}}
	var drops []func()
	if base := os.Getenv("LATCH_TEST_POSTGRES"); base != "" {
		u, drop, err := freshSchema(base)
		if err != nil {
			log.Fatalf("postgres: %v", err)
		}
		drops = append(drops, drop)
		backends = append(backends, struct{ name, url string }{"Postgres", u})
	}
	defer func() {
		for _, d := range drops {
			d()
		}
	}()
	for _, b := range backends {
		benchAccountAPI(report, latchd, b.name, b.url)
	}
	fmt.Fprintf(report, "\nTargets (issue 6): history p99 under 10 ms for an address with 10,000 transfers. The server ran with `--account-rate-limit 0`.\n")
	benchIndexer(report, backends)
}

func benchAccountAPI(report *strings.Builder, latchd, dbName, databaseURL string) {
	dir, err := os.MkdirTemp("", "latch-bench-account-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	// The server's flags come from the environment here: start() is shared.
	os.Setenv("LATCH_ACCOUNT_RATE_LIMIT", "0")
	os.Setenv("LATCH_DATABASE_URL", databaseURL)
	srv, err := start(latchd, dir)
	os.Unsetenv("LATCH_ACCOUNT_RATE_LIMIT")
	os.Unsetenv("LATCH_DATABASE_URL")
	if err != nil {
		log.Fatal(err)
	}
	defer srv.stop()
	info, err := devInfo(srv.api)
	if err != nil {
		log.Fatal(err)
	}
	chain := info.Networks[0]
	usdc := common.HexToAddress(info.Tokens[chain.CAIPNetworkID]["USDC"].Address)

	key, _ := crypto.GenerateKey()
	to := crypto.PubkeyToAddress(key.PublicKey)
	t0 := time.Now()
	last, err := sendTransfers(chain.RPCURL, chain.ChainID, usdc, to, historyTransfers)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("%s: %d transfers sent and mined in %v", dbName, historyTransfers, time.Since(t0).Round(time.Millisecond))

	base := fmt.Sprintf("/v1/account/%s/history?projectId=%s&chainId=%s", to.Hex(), info.ProjectID, chain.CAIPNetworkID)
	cursors, err := pageThrough(srv.api+base, last)
	if err != nil {
		log.Fatalf("%s: %v", dbName, err)
	}
	apiHost := strings.TrimPrefix(srv.api, "http://")
	get := func(path string) []byte {
		return []byte("GET " + path + " HTTP/1.1\r\nHost: " + apiHost + "\r\n\r\n")
	}
	first := [][]byte{get(base)}
	var deep [][]byte
	for _, c := range cursors {
		deep = append(deep, get(base+"&cursor="+url.QueryEscape(c)))
	}
	warm := [][]byte{get(fmt.Sprintf("/v1/account/%s/balance?projectId=%s&currency=usd&chainId=%s", info.Accounts[0], info.ProjectID, chain.CAIPNetworkID))}
	var cold [][]byte
	for i := range 2000 {
		cold = append(cold, get(fmt.Sprintf("/v1/account/0x%040x/balance?projectId=%s&currency=usd&chainId=%s", 0x5eed0000+i, info.ProjectID, chain.CAIPNetworkID)))
	}
	row := func(what string, clients int, r result) {
		fmt.Fprintf(report, "| %s | %s | %d | %s | %s | %s | %.0f req/s |\n", dbName, what, clients, r.p50, r.p99, r.max, r.rps)
		log.Printf("%s %s, %d clients: p50 %v p99 %v max %v, %.0f req/s", dbName, what, clients, r.p50, r.p99, r.max, r.rps)
	}
	for _, clients := range []int{1, 16} {
		row("history, first page", clients, load(apiHost, first, clients, 2000))
		row(fmt.Sprintf("history, deep pages (%d cursors)", len(deep)), clients, load(apiHost, deep, clients, 2000))
	}
	row("balance, warm", 1, load(apiHost, warm, 1, 2000))
	row("balance, warm", 16, load(apiHost, warm, 16, 2000))
	// Each cold request asks for an address not asked before (but for the 4
	// the connection's warm-up already asked: 0.2 % cache hits).
	row("balance, cold", 1, load(apiHost, cold, 1, 2000))
}

type benchDevInfo struct {
	ProjectID string
	Accounts  []string
	Networks  []struct {
		CAIPNetworkID string
		ChainID       uint64
		RPCURL        string
	}
	Tokens map[string]map[string]struct{ Address string }
}

func devInfo(api string) (benchDevInfo, error) {
	var info benchDevInfo
	resp, err := http.Get(api + "/dev/info")
	if err != nil {
		return info, err
	}
	defer resp.Body.Close()
	err = json.NewDecoder(resp.Body).Decode(&info)
	return info, err
}

var benchToken = contracts.MustLoad("DevToken").ABI

// sendTransfers makes the dev accounts 1–9 send n transfers of 1 base unit
// of token to `to`, in rounds of up to 64 per account (within the pool's
// limits), and waits until all are mined. It returns the hash of the newest.
func sendTransfers(rpcURL string, chainID uint64, token, to common.Address, n int) (common.Hash, error) {
	ctx := context.Background()
	rc, err := rpc.Dial(rpcURL)
	if err != nil {
		return common.Hash{}, err
	}
	defer rc.Close()
	eth := ethclient.NewClient(rc)
	senders := devnet.TestAccounts()[1:]
	signer := types.LatestSignerForChainID(new(big.Int).SetUint64(chainID))
	data, _ := benchToken.Pack("transfer", to, big.NewInt(1))
	var last common.Hash
	for sent := 0; sent < n; {
		head, err := eth.HeaderByNumber(ctx, nil)
		if err != nil {
			return last, err
		}
		feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(4)), big.NewInt(1e9))
		var batch []rpc.BatchElem
		want := map[common.Address]uint64{}
		for _, acc := range senders {
			nonce, err := eth.PendingNonceAt(ctx, acc.Address)
			if err != nil {
				return last, err
			}
			k := min(64, n-sent)
			for i := range k {
				tx, err := types.SignNewTx(acc.Key, signer, &types.DynamicFeeTx{
					ChainID: new(big.Int).SetUint64(chainID), Nonce: nonce + uint64(i), GasTipCap: big.NewInt(1e9), GasFeeCap: feeCap,
					Gas: 60_000, To: &token, Data: data,
				})
				if err != nil {
					return last, err
				}
				raw, _ := tx.MarshalBinary()
				batch = append(batch, rpc.BatchElem{Method: "eth_sendRawTransaction", Args: []any{hexutil.Encode(raw)}, Result: new(common.Hash)})
				last = tx.Hash()
			}
			want[acc.Address] = nonce + uint64(k)
			sent += k
			if sent >= n {
				break
			}
		}
		for len(batch) > 0 {
			chunk := batch[:min(len(batch), 500)]
			batch = batch[len(chunk):]
			if err := rc.BatchCallContext(ctx, chunk); err != nil {
				return last, err
			}
			for _, e := range chunk {
				if e.Error != nil {
					return last, fmt.Errorf("send: %w", e.Error)
				}
			}
		}
		deadline := time.Now().Add(60 * time.Second)
		for addr, nonce := range want {
			for {
				got, err := eth.NonceAt(ctx, addr, nil)
				if err != nil {
					return last, err
				}
				if got >= nonce {
					break
				}
				if time.Now().After(deadline) {
					return last, fmt.Errorf("transfers of %s not mined (nonce %d, want %d)", addr, got, nonce)
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
	}
	// The newest transfer is the head block's last transaction, which need not
	// be the last one signed: the pool orders equal-fee senders by arrival.
	head, err := eth.BlockByNumber(ctx, nil)
	if err != nil {
		return last, err
	}
	if txs := head.Transactions(); len(txs) > 0 {
		last = txs[len(txs)-1].Hash()
	}
	return last, nil
}

// pageThrough waits until the indexer has the last transfer, then reads the
// whole history 100 entries at a time, checking it holds exactly
// historyTransfers entries, and returns the cursors of 50-entry pages
// spread over it.
func pageThrough(historyURL string, last common.Hash) ([]string, error) {
	type page struct {
		Data []struct{ ID string }
		Next *string
	}
	get := func(u string) (page, error) {
		var p page
		resp, err := http.Get(u)
		if err != nil {
			return p, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b, _ := io.ReadAll(resp.Body)
			return p, fmt.Errorf("%s: %s", resp.Status, b)
		}
		return p, json.NewDecoder(resp.Body).Decode(&p)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		p, err := get(historyURL + "&limit=1")
		if err != nil {
			return nil, err
		}
		if len(p.Data) == 1 && p.Data[0].ID == last.Hex() {
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the indexer never caught up with %s", last.Hex())
		}
		time.Sleep(20 * time.Millisecond)
	}
	var cursors []string
	seen := map[string]bool{}
	next := ""
	for {
		u := historyURL + "&limit=100"
		if next != "" {
			u += "&cursor=" + url.QueryEscape(next)
		}
		p, err := get(u)
		if err != nil {
			return nil, err
		}
		for _, d := range p.Data {
			if seen[d.ID] {
				return nil, fmt.Errorf("entry %s twice", d.ID)
			}
			seen[d.ID] = true
		}
		if p.Next == nil {
			break
		}
		next = *p.Next
		if len(seen)%1000 == 0 {
			cursors = append(cursors, next)
		}
	}
	if len(seen) != historyTransfers {
		return nil, fmt.Errorf("history holds %d entries, want %d", len(seen), historyTransfers)
	}
	return cursors, nil
}

// benchIndexer fills an in-process dev chain with blocks of transfers and
// times a fresh indexer backfilling it, per database.
func benchIndexer(report *strings.Builder, backends []struct{ name, url string }) {
	const blocks, perBlock = 1000, 10
	ctx := context.Background()
	d, err := devnet.Start(ctx, devnet.Config{ChainIDs: []uint64{31999}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	c := d.Chains()[0]
	var usdc common.Address
	for _, t := range c.Tokens {
		if t.Symbol == "USDC" {
			usdc = t.Address
		}
	}
	t0 := time.Now()
	if err := fillBlocks(c, usdc, blocks, perBlock); err != nil {
		log.Fatal(err)
	}
	log.Printf("indexer bench: %d blocks of %d transfers made in %v", blocks, perBlock, time.Since(t0).Round(time.Millisecond))

	fmt.Fprintf(report, "\nIndexer backfill on a dev chain (in-process geth over HTTP JSON-RPC, batches of 100 blocks with their receipts): a fresh index of the whole chain, %d blocks holding %d ERC-20 transfers plus the deployment blocks.\n\n", blocks, blocks*perBlock)
	fmt.Fprintf(report, "| database | blocks | transactions | movements | time | blocks/s | transfers/s |\n|---|---|---|---|---|---|---|\n")
	for _, b := range backends {
		dir, err := os.MkdirTemp("", "latch-bench-indexer-")
		if err != nil {
			log.Fatal(err)
		}
		url := b.url
		var drop func()
		if url != "" {
			if url, drop, err = freshSchema(os.Getenv("LATCH_TEST_POSTGRES")); err != nil {
				log.Fatal(err)
			}
		}
		db, err := store.Open(ctx, url, dir)
		if err != nil {
			log.Fatal(err)
		}
		st := indexer.NewStore(db)
		var listed []indexer.Token
		for _, t := range c.Tokens {
			listed = append(listed, indexer.Token{Address: t.Address, Standard: 20, Name: t.Name, Symbol: t.Symbol, Decimals: int(t.Decimals), WrappedNative: t.Symbol == "WETH"})
		}
		client, err := evm.NewClient([]string{c.RPCURL})
		if err != nil {
			log.Fatal(err)
		}
		ix := indexer.New(indexer.Config{Store: st, Tokens: indexer.NewTokens(st, map[uint64][]indexer.Token{c.ChainID: listed}), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		head, _ := client.Header(ctx, 0, true)
		start := time.Now()
		if err := ix.Follow(indexer.Chain{ChainID: c.ChainID, Client: client, BatchSize: 100, PollInterval: time.Hour}); err != nil {
			log.Fatal(err)
		}
		wctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		if err := ix.WaitIndexed(wctx, c.ChainID, uint64(head.Number)); err != nil {
			log.Fatal(err)
		}
		elapsed := time.Since(start)
		cancel()
		ix.Close()
		client.Close()
		var txs, moves int
		db.QueryRow(ctx, `SELECT COUNT(*) FROM chain_txs`).Scan(&txs)
		db.QueryRow(ctx, `SELECT COUNT(*) FROM chain_movements`).Scan(&moves)
		n := float64(head.Number) + 1
		fmt.Fprintf(report, "| %s | %d | %d | %d | %s | %.0f | %.0f |\n", b.name, int(n), txs, moves, elapsed.Round(time.Millisecond), n/elapsed.Seconds(), float64(moves)/elapsed.Seconds())
		log.Printf("indexer %s: %d blocks, %d movements in %v", b.name, int(n), moves, elapsed)
		db.Close()
		os.RemoveAll(dir)
		if drop != nil {
			drop()
		}
	}
}

// fillBlocks seals `blocks` blocks of perBlock transfers each: every round
// sends one transfer from each of perBlock dev accounts and waits for them.
func fillBlocks(c devnet.Chain, token common.Address, blocks, perBlock int) error {
	ctx := context.Background()
	rc, err := rpc.Dial(c.RPCURL)
	if err != nil {
		return err
	}
	defer rc.Close()
	eth := ethclient.NewClient(rc)
	accounts := devnet.TestAccounts()[:perBlock]
	signer := types.LatestSignerForChainID(new(big.Int).SetUint64(c.ChainID))
	nonces := make([]uint64, len(accounts))
	for i, a := range accounts {
		if nonces[i], err = eth.PendingNonceAt(ctx, a.Address); err != nil {
			return err
		}
	}
	head, err := eth.HeaderByNumber(ctx, nil)
	if err != nil {
		return err
	}
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(4)), big.NewInt(1e9))
	for b := range blocks {
		batch := make([]rpc.BatchElem, len(accounts))
		var last common.Hash
		for i, a := range accounts {
			to := accounts[(i+1+b)%len(accounts)].Address
			data, _ := benchToken.Pack("transfer", to, big.NewInt(int64(b+1)))
			tx, err := types.SignNewTx(a.Key, signer, &types.DynamicFeeTx{
				ChainID: new(big.Int).SetUint64(c.ChainID), Nonce: nonces[i], GasTipCap: big.NewInt(1e9), GasFeeCap: feeCap, Gas: 60_000, To: &token, Data: data,
			})
			if err != nil {
				return err
			}
			nonces[i]++
			raw, _ := tx.MarshalBinary()
			batch[i] = rpc.BatchElem{Method: "eth_sendRawTransaction", Args: []any{hexutil.Encode(raw)}, Result: new(common.Hash)}
			last = tx.Hash()
		}
		if err := rc.BatchCallContext(ctx, batch); err != nil {
			return err
		}
		for _, e := range batch {
			if e.Error != nil {
				return e.Error
			}
		}
		for {
			if r, err := eth.TransactionReceipt(ctx, last); err == nil && r != nil {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	return nil
}

// freshSchema makes an empty Postgres schema and returns a URL using it and
// a func that drops it (as storetest does for tests).
func freshSchema(base string) (string, func(), error) {
	b := make([]byte, 6)
	rand.Read(b)
	schema := "bench_" + hex.EncodeToString(b)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return "", nil, err
	}
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		admin.Close()
		return "", nil, err
	}
	u, err := url.Parse(base)
	if err != nil {
		admin.Close()
		return "", nil, err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), func() {
		admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		admin.Close()
	}, nil
}
