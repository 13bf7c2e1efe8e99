package app

import (
	"io"
	"strings"
	"testing"
)

func TestConfig_BundlerFlags(t *testing.T) {
	cfg, err := parseConfig("latchd dev", nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	b := cfg.Bundler
	if !b.Dev || b.MinPriorityFee != "1" || b.MaxPendingPerSender != 4 || b.SponsorDefault || b.SponsorAccountDailyCap != defaultSponsorAccountDailyCap || b.SponsorDailyCap != defaultSponsorDailyCap || len(b.Networks) != 0 ||
		b.Untraced != "accept" || b.MinStake != "1000000000000000000" || len(b.MinBalances) != 0 {
		t.Fatalf("defaults: %+v", b)
	}
	cfg, err = parseConfig("latchd dev", []string{"--dev-bundler=false", "--bundler", "eip155:1=0x0000000071727De22E5E9d8BAf0edAc6f37da032,0x0000000000000000000000000000000000000001",
		"--bundler-key-file", "/k", "--paymaster", "eip155:1=0x0000000000000000000000000000000000000002", "--paymaster-key-file", "/p",
		"--bundler-min-priority-fee", "100000000", "--bundler-max-pending-per-sender", "2", "--sponsor-default", "--sponsor-account-daily-cap", "3", "--sponsor-daily-cap", "0",
		"--bundler-untraced", "refuse", "--bundler-min-stake", "5", "--bundler-min-balance", "eip155:1=7", "--bundler-min-balance", "eip155:10=8"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	b = cfg.Bundler
	if b.Dev || len(b.Networks) != 1 || b.KeyFile != "/k" || len(b.Paymasters) != 1 || b.PaymasterKeyFile != "/p" || b.MinPriorityFee != "100000000" || b.MaxPendingPerSender != 2 || !b.SponsorDefault || b.SponsorAccountDailyCap != 3 || b.SponsorDailyCap != 0 ||
		b.Untraced != "refuse" || b.MinStake != "5" || strings.Join(b.MinBalances, " ") != "eip155:1=7 eip155:10=8" {
		t.Fatalf("set: %+v", b)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--bundler", "eip155:1=0x01"}, "want <caip2>=<entryPoint>,<factory>"},
		{[]string{"--bundler", "solana:x=0x0000000071727De22E5E9d8BAf0edAc6f37da032,0x0000000000000000000000000000000000000001", "--bundler-key-file", "/k"}, "not an eip155 network"},
		{[]string{"--bundler", "eip155:1=0x0000000071727De22E5E9d8BAf0edAc6f37da032,0x0000000000000000000000000000000000000001"}, "--bundler needs --bundler-key-file"},
		{[]string{"--paymaster", "eip155:1=nope"}, "want <caip2>=<address>"},
		{[]string{"--paymaster", "eip155:1=0x0000000000000000000000000000000000000002"}, "--paymaster needs --paymaster-key-file"},
		{[]string{"--bundler-min-priority-fee", "1gwei"}, "not a number of wei"},
		{[]string{"--sponsor-daily-cap", "-1"}, "must not be negative"},
		{[]string{"--bundler-max-pending-per-sender", "0"}, "--bundler-max-pending-per-sender: 0; at least 1"},
		{[]string{"--bundler-untraced", "maybe"}, `--bundler-untraced: "maybe"; want accept or refuse`},
		{[]string{"--bundler-min-stake", "1eth"}, `--bundler-min-stake: "1eth" is not a number of wei`},
		{[]string{"--bundler-min-balance", "eip155:1"}, "want <caip2>=<wei>"},
		{[]string{"--bundler-min-balance", "solana:x=1"}, "not an eip155 network"},
		{[]string{"--bundler-min-balance", "eip155:1=-5"}, "is not a number of wei"},
	} {
		if _, err := parseConfig("latchd dev", tt.args, io.Discard); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want %q", tt.args, err, tt.want)
		}
	}
}
