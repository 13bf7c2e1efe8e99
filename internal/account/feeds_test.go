package account

import (
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/data"
	"github.com/latchkit/latch/internal/indexer"
	"github.com/latchkit/latch/internal/network"
)

func TestBuiltinFeeds(t *testing.T) {
	feeds, err := BuiltinFeeds()
	if err != nil {
		t.Fatal(err)
	}
	networks := map[string]int{}
	for _, f := range feeds {
		networks[f.Network]++
		if f.MaxAge <= heartbeatGrace {
			t.Errorf("%s %s: max age %s", f.Network, f.Asset, f.MaxAge)
		}
	}
	for _, id := range []string{"eip155:1", "eip155:10", "eip155:137", "eip155:8453", "eip155:42161"} {
		if networks[id] < 3 {
			t.Errorf("%s has %d feeds", id, networks[id])
		}
	}
}

func TestParseFeedFlag(t *testing.T) {
	f, err := ParseFeedFlag("eip155:1:native=0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419")
	if err != nil || f.Network != "eip155:1" || f.Asset != "native" || f.Feed != common.HexToAddress("0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419") {
		t.Fatalf("ParseFeedFlag = %+v, %v", f, err)
	}
	for _, bad := range []string{"", "eip155:1:native", "eip155:1=0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419", "solana:x:native=0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419", "eip155:1:USDC=0x123", "eip155:1:=0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419"} {
		if _, err := ParseFeedFlag(bad); err == nil {
			t.Errorf("ParseFeedFlag(%q) accepted", bad)
		}
	}
}

func TestResolveAsset(t *testing.T) {
	usdc := common.HexToAddress("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48")
	listed := []indexer.Token{{Address: usdc, Symbol: "USDC"}}
	tests := []struct {
		asset string
		want  common.Address
		ok    bool
	}{
		{"native", Native, true},
		{"USDC", usdc, true},
		{"0x6B175474E89094C44Da98b954EedeAC495271d0F", common.HexToAddress("0x6B175474E89094C44Da98b954EedeAC495271d0F"), true}, // any address, listed or not
		{"6B175474E89094C44Da98b954EedeAC495271d0F", common.Address{}, false},                                                   // an address needs its 0x
		{"usdc", common.Address{}, false},
		{"DAI", common.Address{}, false},
		{"", common.Address{}, false},
	}
	for _, tt := range tests {
		got, ok := ResolveAsset(tt.asset, listed)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ResolveAsset(%q) = %s, %v; want %s, %v", tt.asset, got, ok, tt.want, tt.ok)
		}
	}
}

func TestResolveFeeds(t *testing.T) {
	networks, err := network.Load(data.Networks)
	if err != nil {
		t.Fatal(err)
	}
	listed, err := indexer.ParseTokenList(data.Tokens, networks)
	if err != nil {
		t.Fatal(err)
	}
	ethUSD := common.HexToAddress("0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419")
	t.Run("Builtin", func(t *testing.T) {
		feeds, err := ResolveFeeds(networks, listed, nil)
		if err != nil {
			t.Fatal(err)
		}
		if f := feeds[1][Native]; f.Address != ethUSD || f.MaxAge != time.Hour+heartbeatGrace {
			t.Fatalf("eip155:1 native feed = %+v", f)
		}
		weth, _ := ResolveAsset("WETH", listed[1])
		if feeds[1][weth].Address != ethUSD {
			t.Fatalf("eip155:1 WETH feed = %+v", feeds[1][weth])
		}
	})
	t.Run("FlagWins", func(t *testing.T) {
		other := common.HexToAddress("0x00000000000000000000000000000000000000aa")
		feeds, err := ResolveFeeds(networks, listed, []string{"eip155:1:native=" + other.Hex()})
		if err != nil {
			t.Fatal(err)
		}
		if f := feeds[1][Native]; f.Address != other || f.MaxAge != defaultHeartbeat+heartbeatGrace {
			t.Fatalf("eip155:1 native feed = %+v", f)
		}
	})
	for name, tt := range map[string]struct{ flag, wantErr string }{
		"ErrUnknownNetwork": {"eip155:999999999:native=0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419", "--price-feed: unknown network eip155:999999999"},
		"ErrUnknownAsset":   {"eip155:1:NOPE=0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419", "--price-feed eip155:1:NOPE: not native, a listed token symbol or a token address"},
		"ErrBadFlag":        {"eip155:1:native", "want <caip2>:<native|symbol|token address>=<feed address>"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ResolveFeeds(networks, listed, []string{tt.flag})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
	t.Run("Set", func(t *testing.T) {
		feeds := Feeds{}
		feeds.Set(31337, Native, Feed{Address: ethUSD})
		if feeds[31337][Native].Address != ethUSD || feeds[31337][Native].MaxAge != 0 {
			t.Fatalf("feeds = %+v", feeds)
		}
	})
}
