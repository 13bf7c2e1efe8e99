package siwx

import (
	"strings"
	"testing"
	"time"
)

// The EIP's own example message (the ABNF's layout, with a statement and
// resources) and AppKit's layout without a statement.
const (
	vectorEIP = "service.org wants you to sign in with your Ethereum account:\n" +
		"0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2\n\n" +
		"I accept the ServiceOrg Terms of Service: https://service.org/tos\n\n" +
		"URI: https://service.org/login\nVersion: 1\nChain ID: 1\nNonce: 32891757\n" +
		"Issued At: 2021-09-30T16:25:24.000Z\n" +
		"Resources:\n- ipfs://Qme7ss3ARVgxv6rXqVPiikMJ8u2NLgmgszg13pYrDKEoiu\n- https://example.com/my-web2-claim.json"
	vectorFull = "https://example.com:3000 wants you to sign in with your Ethereum account:\n" +
		"0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2\n\n\n" +
		"URI: https://example.com:3000/login\nVersion: 1\nChain ID: eip155:137\nNonce: abcdef0123456789\n" +
		"Issued At: 2024-01-01T00:00:00Z\nExpiration Time: 2024-01-01T00:10:00Z\nNot Before: 2024-01-01T00:00:00Z\nRequest ID: req-1"
	vectorAppKit = "localhost:5173 wants you to sign in with your Ethereum account:\n" +
		"0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2\n\n" +
		"URI: http://localhost:5173\nVersion: 1\nChain ID: eip155:1\nNonce: Xy12ab34cd56\nIssued At: 2024-01-01T00:00:00.123Z"
	vectorSolana = "example.com wants you to sign in with your Solana account:\n" +
		"GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1\n\n" +
		"Sign in to Example\n\n" +
		"URI: https://example.com\nVersion: 1\nChain ID: solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp\nNonce: 8b2c7d1e9f0a\nIssued At: 2024-01-01T00:00:00Z"
)

func TestParseMessage(t *testing.T) {
	t.Run("EIPExample", func(t *testing.T) {
		m, err := ParseMessage(vectorEIP)
		if err != nil {
			t.Fatal(err)
		}
		if m.Domain != "service.org" || m.Namespace != EIP155 || m.ChainID != "eip155:1" || m.Nonce != "32891757" ||
			m.Statement != "I accept the ServiceOrg Terms of Service: https://service.org/tos" || len(m.Resources) != 2 ||
			!m.IssuedAt.Equal(time.Date(2021, 9, 30, 16, 25, 24, 0, time.UTC)) {
			t.Fatalf("parsed %+v", m)
		}
		if got := m.String(); got != vectorEIP {
			t.Fatalf("String() =\n%s\nwant\n%s", got, vectorEIP)
		}
	})
	t.Run("AllFields", func(t *testing.T) {
		m, err := ParseMessage(vectorFull)
		if err != nil {
			t.Fatal(err)
		}
		if m.Scheme != "https" || m.Domain != "example.com:3000" || m.Statement != "" || m.ChainID != "eip155:137" ||
			m.ExpirationTime == nil || m.NotBefore == nil || m.RequestID == nil || *m.RequestID != "req-1" {
			t.Fatalf("parsed %+v", m)
		}
	})
	t.Run("AppKitLayout", func(t *testing.T) {
		m, err := ParseMessage(vectorAppKit)
		if err != nil || m.Domain != "localhost:5173" || m.Statement != "" || m.ChainID != "eip155:1" {
			t.Fatalf("parsed %+v, %v", m, err)
		}
	})
	t.Run("NetworkName", func(t *testing.T) {
		// AppKit names the network: "your Polygon account", with a CAIP-2 Chain ID.
		msg := strings.Replace(strings.Replace(vectorAppKit, "Ethereum account", "Polygon account", 1), "eip155:1", "eip155:137", 1)
		m, err := ParseMessage(msg)
		if err != nil || m.Namespace != EIP155 || m.ChainID != "eip155:137" || m.AccountName != "Polygon" {
			t.Fatalf("parsed %+v, %v", m, err)
		}
		if again, err := ParseMessage(m.String()); err != nil || again.String() != m.String() || !strings.Contains(m.String(), "Chain ID: eip155:137") {
			t.Fatalf("round trip: %q, %v", m.String(), err)
		}
	})
	t.Run("Solana", func(t *testing.T) {
		m, err := ParseMessage(vectorSolana)
		if err != nil || m.Namespace != Solana || m.ChainID != "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp" || m.Statement != "Sign in to Example" {
			t.Fatalf("parsed %+v, %v", m, err)
		}
	})
}

// TestParseMessage_Malformed breaks one field at a time; each names its field.
func TestParseMessage_Malformed(t *testing.T) {
	for _, tt := range []struct {
		name, from, to, field string
	}{
		{"EmptyDomain", "service.org wants", " wants", "domain"},
		{"DomainWithPath", "service.org wants", "service.org/x wants", "domain"},
		{"BadPort", "service.org wants", "service.org:99999 wants", "domain"},
		{"BadScheme", "service.org wants", "1http://service.org wants", "scheme"},
		{"NetworkNameWithBareChainID", "Ethereum account:", "Polygon account:", "chainId"},
		{"EmptyAccountKind", "Ethereum account:", " account:", "domain"},
		{"UnsupportedNamespace", "Chain ID: 1\n", "Chain ID: cosmos:hub-4\n", "chainId"},
		{"NoHeader", "wants you to sign in with your", "asks you to sign in with your", "domain"},
		{"ShortAddress", "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756C", "address"},
		{"NotChecksummed", "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2", "address"},
		{"NoBlankAfterAddress", "Cc2\n\nI accept", "Cc2\nI accept", "statement"},
		{"TwoLineStatement", "service.org/tos\n\nURI", "service.org/tos\nmore\n\nURI", "statement"},
		{"StatementWithoutBlank", "service.org/tos\n\nURI", "service.org/tos\nURI", "statement"},
		{"MissingURI", "URI: https://service.org/login\n", "", "uri"},
		{"RelativeURI", "URI: https://service.org/login", "URI: /login", "uri"},
		{"Version2", "Version: 1", "Version: 2", "version"},
		{"MissingVersion", "Version: 1\n", "", "version"},
		{"ChainZero", "Chain ID: 1\n", "Chain ID: 0\n", "chainId"},
		{"ChainHex", "Chain ID: 1\n", "Chain ID: 0x1\n", "chainId"},
		{"ChainOtherNamespace", "Chain ID: 1\n", "Chain ID: solana:1\n", "chainId"},
		{"ShortNonce", "Nonce: 32891757", "Nonce: 3289", "nonce"},
		{"NonceSymbols", "Nonce: 32891757", "Nonce: 32891757!!", "nonce"},
		{"IssuedAtNotRFC3339", "Issued At: 2021-09-30T16:25:24.000Z", "Issued At: 30 Sep 2021", "issuedAt"},
		{"MissingIssuedAt", "Issued At: 2021-09-30T16:25:24.000Z\n", "", "issuedAt"},
		{"ExpirationNotRFC3339", "Issued At: 2021-09-30T16:25:24.000Z", "Issued At: 2021-09-30T16:25:24.000Z\nExpiration Time: tomorrow", "expirationTime"},
		{"NotBeforeNotRFC3339", "Issued At: 2021-09-30T16:25:24.000Z", "Issued At: 2021-09-30T16:25:24.000Z\nNot Before: 2021-13-01T00:00:00Z", "notBefore"},
		{"RequestIDControl", "Issued At: 2021-09-30T16:25:24.000Z", "Issued At: 2021-09-30T16:25:24.000Z\nRequest ID: a\tb", "requestId"},
		{"ResourceNotURI", "- ipfs://Qme7ss3ARVgxv6rXqVPiikMJ8u2NLgmgszg13pYrDKEoiu", "- not a uri", "resources"},
		{"EmptyResources", "Resources:\n- ipfs://Qme7ss3ARVgxv6rXqVPiikMJ8u2NLgmgszg13pYrDKEoiu\n- https://example.com/my-web2-claim.json", "Resources:", "resources"},
		{"FieldsOutOfOrder", "Version: 1\nChain ID: 1", "Chain ID: 1\nVersion: 1", "version"},
		{"TrailingText", "my-web2-claim.json", "my-web2-claim.json\nextra", "message"},
		{"CRLF", "\n", "\r\n", "message"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msg := strings.Replace(vectorEIP, tt.from, tt.to, 1)
			if msg == vectorEIP {
				t.Fatalf("replacement %q did not apply", tt.from)
			}
			_, err := ParseMessage(msg)
			var e *Error
			if err == nil || ReasonOf(err) != ReasonMalformed {
				t.Fatalf("err = %v, want malformed", err)
			}
			if e = err.(*Error); e.Field != tt.field {
				t.Fatalf("field = %q (%v), want %q", e.Field, err, tt.field)
			}
		})
	}
	t.Run("SolanaAddress", func(t *testing.T) {
		msg := strings.Replace(vectorSolana, "GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1", "0OIl", 1)
		if _, err := ParseMessage(msg); err == nil || err.(*Error).Field != "address" {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("TooLong", func(t *testing.T) {
		if _, err := ParseMessage(vectorEIP + strings.Repeat("x", MaxMessageLen)); ReasonOf(err) != ReasonMalformed {
			t.Fatalf("err = %v", err)
		}
	})
}

func FuzzParseMessage(f *testing.F) {
	for _, s := range []string{vectorEIP, vectorFull, vectorAppKit, vectorSolana, strings.Replace(vectorAppKit, "Ethereum account", "Base account", 1), "", "\n\n\n", "a wants you to sign in with your Ethereum account:\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMessage(s)
		if err != nil {
			if ReasonOf(err) != ReasonMalformed {
				t.Fatalf("error without the malformed reason: %v", err)
			}
			return
		}
		// A message that parses writes back to one that parses the same.
		again, err := ParseMessage(m.String())
		if err != nil {
			t.Fatalf("String() of a parsed message does not parse: %v\n%q", err, m.String())
		}
		if again.String() != m.String() {
			t.Fatalf("round trip changed the message:\n%q\n%q", m.String(), again.String())
		}
	})
}
