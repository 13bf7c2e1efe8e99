package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/solana"
	"github.com/latchkit/latch/internal/solanadev"
)

// solanaTransfers is how many transactions the measured Solana address takes part in.
const solanaTransfers = 300

// benchSolana measures account data for a solana address on latchd dev's
// Solana network (LiteSVM in Node, behind latchd's account API): balances
// warm (cached) and cold (a new address: one batch of three reads of the
// network), and the first history page of an address with solanaTransfers
// transactions, warm (the parsed transactions cached; each request still
// lists the signatures of the address and its token accounts).
func benchSolana(report *strings.Builder, latchd string) {
	dir, err := os.MkdirTemp("", "latch-bench-solana-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Setenv("LATCH_ACCOUNT_RATE_LIMIT", "0")
	srv, err := start(latchd, dir)
	os.Unsetenv("LATCH_ACCOUNT_RATE_LIMIT")
	if err != nil {
		log.Fatal(err)
	}
	defer srv.stop()
	var info struct {
		ProjectID string
		Solana    *struct {
			CAIPNetworkID string
			RPCURL        string
			Accounts      []string
			USDC          struct{ Address string }
		}
	}
	resp, err := http.Get(srv.api + "/dev/info")
	if err != nil {
		log.Fatal(err)
	}
	err = json.NewDecoder(resp.Body).Decode(&info)
	resp.Body.Close()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(report, "\n## Solana account data (latchd dev's Solana network)\n\n")
	if info.Solana == nil {
		fmt.Fprintf(report, "Not measured: latchd dev ran without its Solana network (see its log for why).\n")
		log.Print("solana: latchd dev has no Solana network")
		return
	}
	sol := info.Solana
	client, _ := solana.NewClient([]string{sol.RPCURL}, nil)
	target := solanadev.DevKey(solanadev.TestMnemonic, 0)
	mint := solana.MustParseAddress(sol.USDC.Address)
	t0 := time.Now()
	if err := sendSolanaTransfers(client, target.Address, mint, solanaTransfers); err != nil {
		log.Fatal(err)
	}
	log.Printf("solana: %d transfers in %v", solanaTransfers, time.Since(t0).Round(time.Millisecond))

	apiHost := strings.TrimPrefix(srv.api, "http://")
	get := func(path string) []byte {
		return []byte("GET " + path + " HTTP/1.1\r\nHost: " + apiHost + "\r\n\r\n")
	}
	q := "?projectId=" + info.ProjectID + "&chainId=" + sol.CAIPNetworkID
	balance := [][]byte{get("/v1/account/" + target.Address.String() + "/balance" + q + "&currency=usd")}
	history := [][]byte{get("/v1/account/" + target.Address.String() + "/history" + q)}
	var cold [][]byte
	for range 1000 {
		var a solana.Address
		rand.Read(a[:])
		cold = append(cold, get("/v1/account/"+a.String()+"/balance"+q))
	}
	fmt.Fprintf(report, "GET /v1/account/{address}/balance and /history with chainId=%s. The history address took part in %d transactions (SOL and USDC transfers from 9 dev accounts); a page is 50 entries. \"warm\": the same request again (balance cached 30 s; history's parsed transactions cached, its signature lists read each time: two batches to the network). \"cold\" balance: a new address each time (one batch of getBalance and two getTokenAccountsByOwner). Closed loop, 1 client, after warm-up.\n\n", sol.CAIPNetworkID, solanaTransfers)
	fmt.Fprintf(report, "| request | clients | requests | p50 | p99 | max | throughput |\n|---|---|---|---|---|---|---|\n")
	row := func(what string, n int, r result) {
		fmt.Fprintf(report, "| %s | 1 | %d | %s | %s | %s | %.0f req/s |\n", what, n, r.p50, r.p99, r.max, r.rps)
		log.Printf("solana %s: p50 %v p99 %v max %v, %.0f req/s", what, r.p50, r.p99, r.max, r.rps)
	}
	row("balance, warm", 2000, load(apiHost, balance, 1, 2000))
	row("history, first page, warm", 2000, load(apiHost, history, 1, 2000))
	row("balance, cold", 1000, load(apiHost, cold, 1, 1000))
	fmt.Fprintf(report, "\nTargets (issue 20): balance and history p99 under 10 ms at 1 client, warm. The server ran with `--account-rate-limit 0`.\n")
}

// sendSolanaTransfers sends n transactions that involve to: SOL transfers
// from dev accounts 1–9 and, every third, a USDC transfer to its token account.
func sendSolanaTransfers(c *solana.Client, to, mint solana.Address, n int) error {
	ctx := context.Background()
	toATA, err := solanadev.AssociatedTokenAddress(to, mint)
	if err != nil {
		return err
	}
	for i := range n {
		from := solanadev.DevKey(solanadev.TestMnemonic, uint32(1+i%9))
		var bh struct {
			Value struct{ Blockhash string } `json:"value"`
		}
		if err := c.Do(ctx, &bh, "getLatestBlockhash"); err != nil {
			return err
		}
		ix := solanadev.TransferSOL(from.Address, to, uint64(1000+i))
		if i%3 == 2 {
			fromATA, err := solanadev.AssociatedTokenAddress(from.Address, mint)
			if err != nil {
				return err
			}
			ix = solanadev.TransferChecked(fromATA, mint, toATA, from.Address, uint64(1+i), 6)
		}
		wire, _ := solanadev.SignTransaction(from, nil, solana.MustParseAddress(bh.Value.Blockhash), ix)
		var sig string
		if err := c.Do(ctx, &sig, "sendTransaction", wire, map[string]string{"encoding": "base64"}); err != nil {
			return fmt.Errorf("transfer %d: %w", i, err)
		}
	}
	return nil
}
