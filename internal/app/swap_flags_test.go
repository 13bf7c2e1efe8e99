package app

import (
	"io"
	"strings"
	"testing"
)

func TestConfig_SwapFlags(t *testing.T) {
	cfg, err := parseConfig("latchd dev", nil, io.Discard)
	if err != nil || cfg.Swap.RateLimit != defaultSwapRateLimit || len(cfg.Swap.Routers) != 0 {
		t.Fatalf("defaults: %+v, %v", cfg.Swap, err)
	}
	router := "0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D"
	cfg, err = parseConfig("latchd dev", []string{"--swap-router", "eip155:1=" + router, "--swap-router", "eip155:10=" + router, "--swap-rate-limit", "0"}, io.Discard)
	if err != nil || len(cfg.Swap.Routers) != 2 || cfg.Swap.Routers[1] != "eip155:10="+router || cfg.Swap.RateLimit != 0 {
		t.Fatalf("two routers, no limit: %+v, %v", cfg.Swap, err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--swap-router", "eip155:1"}, "want <caip2>=<router address>"},
		{[]string{"--swap-router", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp=" + router}, "is not an EVM network id"},
		{[]string{"--swap-router", "eip155:1=0x1234"}, "is not a router address"},
		{[]string{"--swap-router", "eip155:1=0x0000000000000000000000000000000000000000"}, "is not a router address"},
		{[]string{"--swap-rate-limit", "-1"}, "--swap-rate-limit must not be negative"},
	} {
		if _, err := parseConfig("latchd dev", tc.args, io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
		}
	}
}
