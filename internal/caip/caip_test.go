package caip

import (
	"errors"
	"strings"
	"testing"
)

func TestParseChainID(t *testing.T) {
	tests := []struct {
		in      string
		want    ChainID
		wantErr bool
	}{
		{in: "eip155:1", want: ChainID{"eip155", "1"}},
		{in: "eip155:31337", want: ChainID{"eip155", "31337"}},
		{in: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", want: ChainID{"solana", "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"}},
		{in: "bip122:000000000019d6689c085ae165831e93", want: ChainID{"bip122", "000000000019d6689c085ae165831e93"}},
		{in: "cosmos:cosmoshub-4", want: ChainID{"cosmos", "cosmoshub-4"}},
		{in: "", wantErr: true},
		{in: "eip155", wantErr: true},
		{in: "eip155:", wantErr: true},
		{in: ":1", wantErr: true},
		{in: "eip155:1:0xabc", wantErr: true},
		{in: "unknown:1", wantErr: true},
		{in: "EIP155:1", wantErr: true},
		{in: "eip155:01", wantErr: true},
		{in: "eip155:0x1", wantErr: true},
		{in: "solana:" + strings.Repeat("a", 33), wantErr: true},
		{in: "eip155:1 ", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseChainID(tt.in)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ParseChainID(%q) = %v, want error", tt.in, got)
				}
				if want := "Invalid CAIP-2 network id: "; !strings.HasPrefix(err.Error(), want) {
					t.Fatalf("error %q does not start with %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseChainID(%q): %v", tt.in, err)
			}
			if got != tt.want || got.String() != tt.in {
				t.Fatalf("ParseChainID(%q) = %+v", tt.in, got)
			}
		})
	}
}

func TestParseAccountID(t *testing.T) {
	ok := []string{
		"eip155:1:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		"solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv",
		"bip122:000000000019d6689c085ae165831e93:128Lkh3S7CkDTBZ8W7BbpsN3YYizJMp8p6",
	}
	for _, in := range ok {
		a, err := ParseAccountID(in)
		if err != nil {
			t.Fatalf("ParseAccountID(%q): %v", in, err)
		}
		if a.String() != in {
			t.Fatalf("round trip %q -> %q", in, a.String())
		}
	}
	bad := []string{"", "eip155:1", "eip155:1:", "::", "eip155::0xabc", "foo:1:0xabc", "eip155:1:0xabc:extra", "eip155:1:0x abc", "eip155:1:" + strings.Repeat("a", 129)}
	for _, in := range bad {
		_, err := ParseAccountID(in)
		if err == nil {
			t.Fatalf("ParseAccountID(%q) succeeded", in)
		}
		if want := "Invalid CAIP-10 address: "; !strings.HasPrefix(err.Error(), want) {
			t.Fatalf("error %q does not start with %q", err, want)
		}
	}
}

func TestErrorMessageIsBounded(t *testing.T) {
	_, err := ParseChainID(strings.Repeat("x", 10000) + "\n")
	if len(err.Error()) > 200 || strings.ContainsRune(err.Error(), '\n') {
		t.Fatalf("unbounded or unclean message: %q", err)
	}
}

func FuzzParseChainID(f *testing.F) {
	for _, s := range []string{"eip155:1", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "eip155:", "a:b:c", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseChainID(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "Invalid CAIP-2 network id: ") {
				t.Fatalf("bad message %q", err)
			}
			return
		}
		if c.String() != s {
			t.Fatalf("round trip %q -> %q", s, c.String())
		}
		if !KnownNamespace(c.Namespace) || c.Reference == "" || len(c.Reference) > 32 {
			t.Fatalf("accepted invalid %q", s)
		}
	})
}

func FuzzParseAccountID(f *testing.F) {
	for _, s := range []string{"eip155:1:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "eip155:1:", "::", "solana:x:y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAccountID(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "Invalid CAIP-10 address: ") {
				t.Fatalf("bad message %q", err)
			}
			return
		}
		if a.String() != s {
			t.Fatalf("round trip %q -> %q", s, a.String())
		}
		if _, err := ParseChainID(a.Chain.String()); err != nil {
			t.Fatalf("accepted %q with invalid chain: %v", s, err)
		}
	})
}

func TestEVMChainID(t *testing.T) {
	tests := []struct {
		in      string
		want    uint64
		wantErr error // nil: ok; ErrNotEVM; or a non-nil *Error (any)
	}{
		{in: "eip155:1", want: 1},
		{in: "eip155:31337", want: 31337},
		{in: "eip155:18446744073709551615", want: 1<<64 - 1},
		{in: "eip155:18446744073709551616", wantErr: &Error{}},
		{in: "eip155:", wantErr: &Error{}},
		{in: "eip155:01", wantErr: &Error{}},
		{in: "eip155:0x1", wantErr: &Error{}},
		{in: "1", wantErr: &Error{}},
		{in: "", wantErr: &Error{}},
		{in: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", wantErr: ErrNotEVM},
		{in: "cosmos:cosmoshub-4", wantErr: ErrNotEVM},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := EVMChainID(tt.in)
			switch want := tt.wantErr.(type) {
			case nil:
				if err != nil || got != tt.want {
					t.Fatalf("EVMChainID(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
				}
			case *Error:
				var perr *Error
				if !errors.As(err, &perr) || !strings.HasPrefix(err.Error(), "Invalid CAIP-2 network id: ") {
					t.Fatalf("EVMChainID(%q) = %d, %v; want an invalid-id error", tt.in, got, err)
				}
			default:
				if !errors.Is(err, want) {
					t.Fatalf("EVMChainID(%q) = %d, %v; want %v", tt.in, got, err, want)
				}
			}
		})
	}
}

func TestEVMNetworkID(t *testing.T) {
	for _, n := range []uint64{0, 1, 31337, 1<<64 - 1} {
		id := EVMNetworkID(n)
		if got, err := EVMChainID(id); err != nil || got != n {
			t.Fatalf("EVMChainID(EVMNetworkID(%d) = %q) = %d, %v", n, id, got, err)
		}
	}
	if got := EVMNetworkID(10); got != "eip155:10" {
		t.Fatalf("EVMNetworkID(10) = %q", got)
	}
}
