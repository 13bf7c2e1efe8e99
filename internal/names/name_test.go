package names

import (
	"strings"
	"testing"

	"github.com/latchkit/latch/internal/apperr"
)

func TestNormalizeLabel(t *testing.T) {
	tests := []struct {
		in, want string
		err      string // substring of the error; "" = valid
	}{
		{"alice", "alice", ""},
		{"Alice", "alice", ""},
		{" bob-1 ", "bob-1", ""},
		{"1234", "1234", ""},
		{"a-b-", "a-b-", ""},
		{"abc", "", "at least 4 characters"},
		{"", "", "A name is required"},
		{"al_ce", "", "letters, digits and hyphens"},
		{"alice!", "", "letters, digits and hyphens"},
		{"ålice", "", "letters, digits and hyphens"},
		{"al ce", "", "letters, digits and hyphens"},
		{"alice.eth", "", "without dots"},
		{"xn--abc", "", "third and fourth"},
		{"ab--cd", "", "third and fourth"},
		{strings.Repeat("a", 63), strings.Repeat("a", 63), ""},
		{strings.Repeat("a", 64), "", "at most 63"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := NormalizeLabel(tt.in)
			if tt.err == "" {
				if err != nil || got != tt.want {
					t.Fatalf("NormalizeLabel(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) || apperr.Code(err) != apperr.Invalid {
				t.Fatalf("NormalizeLabel(%q) = %q, %v; want an invalid error with %q", tt.in, got, err, tt.err)
			}
		})
	}
}

func TestSplitName(t *testing.T) {
	for in, want := range map[string]string{"alice.latch.test": "alice", "ALICE.Latch.Test": "alice", "alice": "alice"} {
		if got, err := SplitName(in, "latch.test"); err != nil || got != want {
			t.Errorf("SplitName(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"alice.eth", "a.b.latch.test", "bob.latch.test.evil"} {
		if _, err := SplitName(in, "latch.test"); err == nil {
			t.Errorf("SplitName(%q) succeeded", in)
		}
	}
}

func TestValidateZone(t *testing.T) {
	for _, ok := range []string{"latch.test", "names.example.com", "a-b.eth"} {
		if err := ValidateZone(ok); err != nil {
			t.Errorf("ValidateZone(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "test", "Latch.test", "latch..test", "-a.test", "la_tch.test", ".latch.test"} {
		if err := ValidateZone(bad); err == nil {
			t.Errorf("ValidateZone(%q) succeeded", bad)
		}
	}
}

func TestCoinTypes(t *testing.T) {
	if ct, ok := CoinTypeOfChain(10); !ok || ct != 0x8000000a {
		t.Fatalf("CoinTypeOfChain(10) = %#x, %v", ct, ok)
	}
	if _, ok := CoinTypeOfChain(1 << 31); ok {
		t.Fatal("CoinTypeOfChain(2^31) has a coin type")
	}
	for ct, want := range map[uint64]uint64{60: 1, 0x8000000a: 10, 0x80007a69: 31337} {
		if got, ok := ChainOfCoinType(ct); !ok || got != want {
			t.Errorf("ChainOfCoinType(%#x) = %d, %v; want %d", ct, got, ok, want)
		}
	}
	for _, ct := range []uint64{0, 501, 1 << 32} {
		if _, ok := ChainOfCoinType(ct); ok {
			t.Errorf("ChainOfCoinType(%d) is an EVM chain", ct)
		}
	}
}

func TestGatewaySelectors(t *testing.T) {
	for method, sel := range map[string][4]byte{"resolve": selResolve, "addr": selAddr, "addr0": selAddrCoin, "text": selText, "contenthash": selContenthash} {
		if got := [4]byte(gatewayABI.Methods[method].ID); got != sel {
			t.Errorf("%s selector %x, want %x", method, got, sel)
		}
	}
}
