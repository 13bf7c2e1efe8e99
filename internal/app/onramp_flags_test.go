package app

import (
	"io"
	"strings"
	"testing"
)

func TestConfig_OnrampFlags(t *testing.T) {
	cfg, err := parseConfig("latchd dev", nil, io.Discard)
	if err != nil || cfg.Onramp.Country != "US" || cfg.Onramp.RateLimit != defaultOnrampRateLimit || cfg.Onramp.CoinbaseKey != "" || cfg.Onramp.MeldAPIKey != "" {
		t.Fatalf("defaults: %+v, %v", cfg.Onramp, err)
	}
	if p, _ := cfg.Onramp.providers(nil); len(p) != 0 {
		t.Fatalf("no key, yet providers %v", p)
	}
	cfg, err = ParseConfig([]string{"--onramp-country", "FR", "--onramp-rate-limit", "0"}, []string{"LATCH_ONRAMP_MELD_API_KEY=meld-secret", "LATCH_ONRAMP_MELD_API_URL=https://api-sb.meld.io"})
	if err != nil || cfg.Onramp.Country != "FR" || cfg.Onramp.RateLimit != 0 || cfg.Onramp.MeldAPIKey != "meld-secret" || cfg.Onramp.MeldAPIURL != "https://api-sb.meld.io" {
		t.Fatalf("set: %+v, %v", cfg.Onramp, err)
	}
	if p, _ := cfg.Onramp.providers(nil); len(p) != 1 || p[0].Name() != "meld" {
		t.Fatalf("the Meld key turns Meld on: %v", p)
	}
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"--onramp-country", "usa"}, "--onramp-country must be a two-letter upper-case country code such as US"},
		{[]string{"--onramp-rate-limit", "-1"}, "--onramp-rate-limit must not be negative"},
		{[]string{"--onramp-coinbase-key-name", "k"}, "--onramp-coinbase-key-name and --onramp-coinbase-key go together"},
		{[]string{"--onramp-coinbase-key", "s3cret-key-material"}, "--onramp-coinbase-key-name and --onramp-coinbase-key go together"},
		{[]string{"--onramp-coinbase-key-name", "k", "--onramp-coinbase-key", "s3cret-key-material"}, "--onramp-coinbase-key: the Coinbase key must be a CDP secret API key"},
		{[]string{"--onramp-coinbase-api-url", "https://x.example"}, "--onramp-coinbase-api-url needs --onramp-coinbase-key"},
		{[]string{"--onramp-meld-api-url", "https://x.example"}, "--onramp-meld-api-url needs --onramp-meld-api-key"},
		{[]string{"--onramp-meld-api-key", "k", "--onramp-meld-api-url", "not a url"}, "--onramp-meld-api-key: the Meld API URL \"not a url\" is not an absolute URL"},
	} {
		_, err := parseConfig("latchd dev", tc.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.err)
		}
	}
}
