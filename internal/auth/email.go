package auth

import (
	"net/mail"
	"strings"

	"github.com/latchkit/latch/internal/apperr"
)

// MsgInvalidEmail answers an address that is not a valid e-mail (spec §5:
// e-mail fields must be valid e-mails; the widget's own check says the same).
const MsgInvalidEmail = "Invalid email address"

// maxEmailLen is the longest address SMTP carries (RFC 5321 §4.5.3.1.3).
const maxEmailLen = 254

// NormalizeEmail validates an address and returns its canonical form:
// trimmed and lower-cased. It accepts only a bare ASCII addr-spec (no
// display name, no comments, no quoted local part) whose domain has a dot,
// so that one mailbox has one spelling. field names the request field.
func NormalizeEmail(field, s string) (string, error) {
	bad := apperr.Fieldf(apperr.Invalid, field, MsgInvalidEmail)
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" || len(s) > maxEmailLen {
		return "", bad
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '"' || c == '(' || c == ')' || c == '<' || c == '>' || c == ',' || c == ';' || c == '\\' || c == '[' || c == ']' {
			return "", bad
		}
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return "", bad
	}
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || len(local) > 64 || strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
		return "", bad
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return "", bad
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return "", bad
		}
		for i := 0; i < len(l); i++ {
			if c := l[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return "", bad
			}
		}
	}
	return s, nil
}
