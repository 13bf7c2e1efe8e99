package siwx

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/base58"
)

// Namespaces a message may sign in with (CAIP-2 namespaces).
const (
	EIP155 = "eip155" // EIP-4361, "Ethereum account"
	Solana = "solana" // CAIP-122, "Solana account"
)

// accountNames are the words of the first line per namespace in EIP-4361
// and CAIP-122. A message may also name its network instead ("your Polygon
// account", as AppKit writes it); its Chain ID must then be a CAIP-2 id.
var accountNames = map[string]string{EIP155: "Ethereum", Solana: "Solana"}

// maxAccountName bounds the network name of the first line.
const maxAccountName = 64

// Message is a parsed sign-in message (EIP-4361, and CAIP-122 for Solana).
type Message struct {
	Scheme    string // optional scheme before the domain, "" when absent
	Domain    string // RFC 3986 authority asking for the sign-in
	Namespace string // EIP155 or Solana, from the Chain ID (or the account kind when the Chain ID is bare)
	// AccountName is the first line's "<name> account": "Ethereum", "Solana",
	// or a network's name; "" writes the namespace's own word.
	AccountName string
	Address     string // EIP-55 checksummed for eip155, base58 for solana
	Statement   string // optional, one line
	URI         string
	Version     string // always "1"
	// ChainID is the CAIP-2 id, e.g. "eip155:1". The message may write the
	// bare reference ("1", as EIP-4361 does) or the whole id (as AppKit does).
	ChainID        string
	Nonce          string
	IssuedAt       time.Time
	ExpirationTime *time.Time
	NotBefore      *time.Time
	RequestID      *string
	Resources      []string

	// The date-times as written, so that String gives back the signed text.
	issuedAtText, expirationText, notBeforeText string
}

// MalformedError is a message that does not follow the grammar; Field names
// the line at fault.
func malformed(field, format string, args ...any) *Error {
	return &Error{Reason: ReasonMalformed, Field: field, Message: fmt.Sprintf(format, args...)}
}

// ParseMessage parses a sign-in message strictly: lines in the grammar's
// order, "\n" line ends, no trailing text. Both statement layouts are read:
// EIP-4361's ABNF (a blank line after the address, and one more before URI)
// and the common one without a statement (a single blank line).
func ParseMessage(s string) (*Message, error) {
	if len(s) > MaxMessageLen {
		return nil, malformed("message", "Message is %d bytes; at most %d are accepted", len(s), MaxMessageLen)
	}
	if strings.Contains(s, "\r") {
		return nil, malformed("message", "Message lines must end with \\n, not \\r\\n")
	}
	lines := strings.Split(s, "\n")
	m := &Message{}
	p := &lineReader{lines: lines}

	// Header: [scheme "://"] domain " wants you to sign in with your X account:"
	head, ok := p.next()
	if !ok {
		return nil, malformed("domain", "Message is empty")
	}
	const wants = " wants you to sign in with your "
	authority, rest, ok := strings.Cut(head, wants)
	if !ok || !strings.HasSuffix(rest, " account:") {
		return nil, malformed("domain", "First line must be \"<domain> wants you to sign in with your <Ethereum|Solana> account:\"")
	}
	name := strings.TrimSuffix(rest, " account:")
	if name == "" || len(name) > maxAccountName || strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return nil, malformed("domain", "Account kind %q must be a network name of at most %d printable characters", clip(name), maxAccountName)
	}
	m.AccountName = name
	if scheme, dom, ok := strings.Cut(authority, "://"); ok {
		if !validScheme(scheme) {
			return nil, malformed("scheme", "Scheme %q is not a URI scheme", scheme)
		}
		m.Scheme, authority = scheme, dom
	}
	if !validAuthority(authority) {
		return nil, malformed("domain", "Domain %q is not a host with an optional port", authority)
	}
	m.Domain = authority

	addr, _ := p.next()
	m.Address = addr // checked once the Chain ID gives the namespace
	if l, _ := p.next(); l != "" {
		return nil, malformed("statement", "A blank line must follow the address")
	}
	// Statement, or straight to URI.
	l, _ := p.peek()
	switch {
	case strings.HasPrefix(l, "URI: "):
	case l == "":
		p.next()
	default:
		p.next()
		m.Statement = l
		if l, _ := p.next(); l != "" {
			return nil, malformed("statement", "The statement must be one line followed by a blank line")
		}
	}

	uri, err := p.field("URI", "uri")
	if err != nil {
		return nil, err
	}
	if u, err := url.Parse(uri); err != nil || u.Scheme == "" || strings.ContainsAny(uri, " \t") {
		return nil, malformed("uri", "URI %q is not an absolute URI", clip(uri))
	}
	m.URI = uri

	if m.Version, err = p.field("Version", "version"); err != nil {
		return nil, err
	}
	if m.Version != "1" {
		return nil, malformed("version", "Version must be 1, not %q", clip(m.Version))
	}

	chain, err := p.field("Chain ID", "chainId")
	if err != nil {
		return nil, err
	}
	if m.Namespace, m.ChainID, err = chainID(m.AccountName, chain); err != nil {
		return nil, err
	}
	if err := checkAddress(m.Namespace, m.Address); err != nil {
		return nil, err
	}

	if m.Nonce, err = p.field("Nonce", "nonce"); err != nil {
		return nil, err
	}
	if !validNonce(m.Nonce) {
		return nil, malformed("nonce", "Nonce must be at least 8 letters or digits")
	}

	issued, err := p.field("Issued At", "issuedAt")
	if err != nil {
		return nil, err
	}
	if m.IssuedAt, err = parseTime("issuedAt", issued); err != nil {
		return nil, err
	}
	m.issuedAtText = issued
	if v, ok := p.optional("Expiration Time"); ok {
		t, err := parseTime("expirationTime", v)
		if err != nil {
			return nil, err
		}
		m.ExpirationTime, m.expirationText = &t, v
	}
	if v, ok := p.optional("Not Before"); ok {
		t, err := parseTime("notBefore", v)
		if err != nil {
			return nil, err
		}
		m.NotBefore, m.notBeforeText = &t, v
	}
	if v, ok := p.optional("Request ID"); ok {
		if strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return nil, malformed("requestId", "Request ID must be printable")
		}
		m.RequestID = &v
	}
	if l, ok := p.peek(); ok && l == "Resources:" {
		p.next()
		for {
			l, ok := p.peek()
			if !ok || !strings.HasPrefix(l, "- ") {
				break
			}
			p.next()
			r := strings.TrimPrefix(l, "- ")
			if u, err := url.Parse(r); err != nil || u.Scheme == "" || strings.ContainsAny(r, " \t") {
				return nil, malformed("resources", "Resource %q is not an absolute URI", clip(r))
			}
			m.Resources = append(m.Resources, r)
		}
		if len(m.Resources) == 0 {
			return nil, malformed("resources", "Resources: must be followed by at least one \"- <uri>\" line")
		}
	}
	if l, ok := p.next(); ok {
		return nil, malformed("message", "Unexpected line %q after the last field", clip(l))
	}
	return m, nil
}

// String writes the message in EIP-4361's layout (a statement, when there
// is one, between blank lines; the chain id as its bare reference).
func (m *Message) String() string {
	var b strings.Builder
	if m.Scheme != "" {
		b.WriteString(m.Scheme + "://")
	}
	name := m.AccountName
	if name == "" {
		name = accountNames[m.Namespace]
	}
	fmt.Fprintf(&b, "%s wants you to sign in with your %s account:\n%s\n\n", m.Domain, name, m.Address)
	if m.Statement != "" {
		b.WriteString(m.Statement + "\n\n")
	}
	// The bare reference when the account kind names the namespace (EIP-4361's form), else the CAIP-2 id.
	chain := m.ChainID
	if _, ref, _ := strings.Cut(m.ChainID, ":"); name == accountNames[m.Namespace] {
		chain = ref
	}
	fmt.Fprintf(&b, "URI: %s\nVersion: %s\nChain ID: %s\nNonce: %s\nIssued At: %s", m.URI, m.Version, chain, m.Nonce, timeText(m.issuedAtText, m.IssuedAt))
	if m.ExpirationTime != nil {
		b.WriteString("\nExpiration Time: " + timeText(m.expirationText, *m.ExpirationTime))
	}
	if m.NotBefore != nil {
		b.WriteString("\nNot Before: " + timeText(m.notBeforeText, *m.NotBefore))
	}
	if m.RequestID != nil {
		b.WriteString("\nRequest ID: " + *m.RequestID)
	}
	if len(m.Resources) > 0 {
		b.WriteString("\nResources:")
		for _, r := range m.Resources {
			b.WriteString("\n- " + r)
		}
	}
	return b.String()
}

// timeText is t as the message wrote it, or in RFC 3339 when it was set in Go.
func timeText(written string, t time.Time) string {
	if written != "" {
		if p, err := time.Parse(time.RFC3339Nano, written); err == nil && p.Equal(t) {
			return written
		}
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// MaxMessageLen bounds a message; real ones are a few hundred bytes.
const MaxMessageLen = 8 << 10

type lineReader struct {
	lines []string
	i     int
}

func (p *lineReader) peek() (string, bool) {
	if p.i >= len(p.lines) {
		return "", false
	}
	return p.lines[p.i], true
}

func (p *lineReader) next() (string, bool) {
	l, ok := p.peek()
	if ok {
		p.i++
	}
	return l, ok
}

// field reads the required line "<tag>: <value>".
func (p *lineReader) field(tag, field string) (string, error) {
	l, ok := p.next()
	v, found := strings.CutPrefix(l, tag+": ")
	if !ok || !found {
		return "", malformed(field, "Expected the line \"%s: …\" here", tag)
	}
	if v == "" {
		return "", malformed(field, "%s is empty", tag)
	}
	return v, nil
}

// optional reads "<tag>: <value>" when it is the next line.
func (p *lineReader) optional(tag string) (string, bool) {
	l, _ := p.peek()
	v, found := strings.CutPrefix(l, tag+": ")
	if found {
		p.next()
	}
	return v, found
}

// chainID reads the Chain ID line: a CAIP-2 id, or a bare reference whose
// namespace the account kind names (Ethereum: eip155, Solana: solana).
func chainID(accountName, s string) (namespace, id string, err error) {
	ref := s
	if ns, r, ok := strings.Cut(s, ":"); ok {
		if _, known := accountNames[ns]; !known {
			return "", "", malformed("chainId", "Chain ID %q is not an eip155 or solana chain", clip(s))
		}
		if word, isWord := accountNames[ns], false; word != accountName {
			for _, w := range accountNames {
				isWord = isWord || w == accountName
			}
			if isWord {
				return "", "", malformed("chainId", "Chain ID %q is not a chain of an %s account", clip(s), accountName)
			}
		}
		namespace, ref = ns, r
	} else {
		for ns, n := range accountNames {
			if n == accountName {
				namespace = ns
			}
		}
		if namespace == "" {
			return "", "", malformed("chainId", "Chain ID %q must be a CAIP-2 id (e.g. eip155:137) when the account is named %q", clip(s), accountName)
		}
	}
	switch namespace {
	case EIP155:
		n, err := strconv.ParseUint(ref, 10, 64)
		if err != nil || n == 0 || ref[0] == '0' {
			return "", "", malformed("chainId", "Chain ID %q is not a positive decimal EIP-155 chain id", clip(s))
		}
	default:
		if len(ref) == 0 || len(ref) > 32 || strings.ContainsFunc(ref, func(r rune) bool { return !isAlnum(r) && r != '-' && r != '_' }) {
			return "", "", malformed("chainId", "Chain ID %q is not a CAIP-2 reference", clip(s))
		}
	}
	return namespace, namespace + ":" + ref, nil
}

// checkAddress checks an address for its namespace.
func checkAddress(namespace, addr string) error {
	switch namespace {
	case EIP155:
		if !common.IsHexAddress(addr) || !strings.HasPrefix(addr, "0x") {
			return malformed("address", "Address %q is not a 0x-prefixed 20-byte hex address", clip(addr))
		}
		if common.HexToAddress(addr).Hex() != addr {
			return malformed("address", "Address %s is not EIP-55 checksummed", addr)
		}
	case Solana:
		if b, err := base58.Decode(addr); err != nil || len(b) != 32 {
			return malformed("address", "Address %q is not a base58 32-byte public key", clip(addr))
		}
	}
	return nil
}

func parseTime(field, s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, malformed(field, "%q is not an RFC 3339 date-time", clip(s))
	}
	return t, nil
}

func validScheme(s string) bool {
	if s == "" || !isLetter(rune(s[0])) {
		return false
	}
	return !strings.ContainsFunc(s, func(r rune) bool { return !isAlnum(r) && r != '+' && r != '-' && r != '.' })
}

func validAuthority(s string) bool {
	if s == "" || strings.ContainsAny(s, "/?#@ \t") {
		return false
	}
	u, err := url.Parse("//" + s)
	if err != nil || u.Host != s || u.Hostname() == "" {
		return false
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n > 65535 {
			return false
		}
	}
	return true
}

func validNonce(s string) bool {
	return len(s) >= 8 && !strings.ContainsFunc(s, func(r rune) bool { return !isAlnum(r) })
}

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }
func isAlnum(r rune) bool  { return isLetter(r) || r >= '0' && r <= '9' }

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
