package solanadev

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/solana"
)

func client(t *testing.T, n *Network) *solana.Client {
	t.Helper()
	c, err := solana.NewClient([]string{n.Info.RPCURL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func balance(t *testing.T, c *solana.Client, a solana.Address) uint64 {
	t.Helper()
	var res struct {
		Value solana.Lamports `json:"value"`
	}
	if err := c.Do(context.Background(), &res, "getBalance", a.String()); err != nil {
		t.Fatal(err)
	}
	return uint64(res.Value)
}

func blockhash(t *testing.T, c *solana.Client) solana.Address {
	t.Helper()
	var res struct {
		Value struct {
			Blockhash string `json:"blockhash"`
		} `json:"value"`
	}
	if err := c.Do(context.Background(), &res, "getLatestBlockhash"); err != nil {
		t.Fatal(err)
	}
	return solana.MustParseAddress(res.Value.Blockhash)
}

func TestStart(t *testing.T) {
	dir := t.TempDir()
	n := StartForTest(t, dir)
	c := client(t, n)
	ctx := context.Background()

	t.Run("Info", func(t *testing.T) {
		if len(n.Info.Accounts) != AccountCount {
			t.Fatalf("accounts = %d", len(n.Info.Accounts))
		}
		for i, a := range n.Info.Accounts {
			if got := DevKey(TestMnemonic, uint32(i)).Address.String(); got != a {
				t.Fatalf("account %d: Go derives %s, the network funds %s", i, got, a)
			}
		}
		if n.Info.USDCMint != LabelKey(USDCMintLabel).Address.String() || n.Info.USDCDecimals != 6 {
			t.Fatalf("usdc = %s/%d", n.Info.USDCMint, n.Info.USDCDecimals)
		}
		var genesis string
		if err := c.Do(ctx, &genesis, "getGenesisHash"); err != nil {
			t.Fatal(err)
		}
		if n.Info.CAIPNetworkID != "solana:"+genesis[:32] {
			t.Fatalf("caip %s, genesis %s", n.Info.CAIPNetworkID, genesis)
		}
	})

	a, b := DevKey(TestMnemonic, 0), DevKey(TestMnemonic, 1)
	t.Run("TransferBuiltInGo", func(t *testing.T) {
		before := balance(t, c, b.Address)
		wire, _ := SignTransaction(a, nil, blockhash(t, c), TransferSOL(a.Address, b.Address, 1_500_000_000))
		var sig string
		if err := c.Do(ctx, &sig, "sendTransaction", wire, map[string]any{"encoding": "base64"}); err != nil {
			t.Fatal(err)
		}
		if got := balance(t, c, b.Address); got != before+1_500_000_000 {
			t.Fatalf("balance %d, want %d", got, before+1_500_000_000)
		}
	})
	t.Run("TokenTransferToAssociatedAccount", func(t *testing.T) {
		mint := solana.MustParseAddress(n.Info.USDCMint)
		from, _ := AssociatedTokenAddress(a.Address, mint)
		to, _ := AssociatedTokenAddress(b.Address, mint)
		wire, _ := SignTransaction(a, nil, blockhash(t, c), TransferChecked(from, mint, to, a.Address, 2_000_000, 6))
		var sig string
		if err := c.Do(ctx, &sig, "sendTransaction", wire, map[string]any{"encoding": "base64"}); err != nil {
			t.Fatal(err)
		}
		var res struct {
			Value struct {
				Amount string `json:"amount"`
			} `json:"value"`
		}
		if err := c.Do(ctx, &res, "getTokenAccountBalance", to.String()); err != nil {
			t.Fatal(err)
		}
		if res.Value.Amount != "10002000000" {
			t.Fatalf("amount = %s", res.Value.Amount)
		}
	})
	t.Run("PersistsAcrossRestart", func(t *testing.T) {
		want := balance(t, c, b.Address)
		n.Close()
		n2 := StartForTest(t, dir)
		if n2.Info.Replayed != 2 {
			t.Fatalf("replayed %d entries, want 2", n2.Info.Replayed)
		}
		if got := balance(t, client(t, n2), b.Address); got != want {
			t.Fatalf("after restart: balance %d, want %d", got, want)
		}
		if _, err := os.Stat(filepath.Join(dir, JournalFile)); err != nil {
			t.Fatal(err)
		}
	})
}

func TestClose(t *testing.T) {
	n := StartForTest(t, "")
	pid := n.cmd.Process.Pid
	n.Close()
	select {
	case <-n.Exited():
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop")
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Fatalf("process %d still runs", pid)
	}
}

func TestStart_Unavailable(t *testing.T) {
	var unavailable *UnavailableError
	t.Run("NoNode", func(t *testing.T) {
		_, err := Start(context.Background(), Config{Node: "latch-no-such-node-binary"})
		if !errors.As(err, &unavailable) {
			t.Fatalf("err = %v", err)
		}
		t.Log(err)
	})
	t.Run("NoPackage", func(t *testing.T) {
		_, err := Start(context.Background(), Config{Dir: t.TempDir()})
		if !errors.As(err, &unavailable) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("NoLiteSVM", func(t *testing.T) {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "src"), 0o755)
		os.WriteFile(filepath.Join(dir, entry), []byte("import 'litesvm'\n"), 0o644)
		_, err := Start(context.Background(), Config{Dir: dir})
		if !errors.As(err, &unavailable) {
			t.Fatalf("err = %v", err)
		}
	})
}
