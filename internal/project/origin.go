package project

import (
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/publicsuffix"

	"github.com/latchkit/latch/internal/apperr"
)

// The grammar of an allowed origin (RFC 3986's scheme, host and port, and
// nothing else): the origins reach the frame page's Content-Security-Policy
// (frame-ancestors) and the CORS headers as they are stored, so a path, a
// query, userinfo, a quote, a semicolon or a space is refused rather than
// escaped. A wildcard is the whole leftmost label only, and never directly
// over a public suffix (https://*.com, https://*.co.uk, https://*.github.io
// would let anyone's site embed the wallet).

// maxHostLen is DNS's limit on a name (RFC 1035), without the final dot.
const maxHostLen = 253

// Messages of the origin checks; %q is the origin as given.
const (
	msgOriginShape      = "Origin %q must look like https://example.com (scheme, host and port only: no path, query, fragment or userinfo)"
	msgOriginWildcard   = "Origin %q may only use a wildcard as its whole first label (https://*.example.com)"
	msgOriginSuffix     = "Origin %q puts a wildcard directly over the public suffix %q: name a domain under it (https://*.example.com)"
	msgOriginIPv6       = "Origin %q names an IPv6 address, which a Content-Security-Policy cannot name: use a host name"
	msgOriginBadPort    = "Origin %q has a port that is not 1 to 65535"
	msgOriginBadHostTxt = "Origin %q has a host that is not a DNS name (letters, digits and hyphens in dot-separated labels) or an IPv4 address"
)

// NormalizeOrigin validates an allowed origin of a project and returns its
// canonical form: scheme://host[:port], lowercase, the default port left
// out; a trailing "/" is dropped. "https://*.example.com" allows every
// subdomain of example.com (not example.com itself).
func NormalizeOrigin(s string) (string, error) {
	return parseOrigin(s, true)
}

// ParseOrigin validates a browser's origin (an Origin header, a page's
// origin): the grammar of NormalizeOrigin without a wildcard.
func ParseOrigin(s string) (string, error) {
	return parseOrigin(s, false)
}

func parseOrigin(s string, wildcard bool) (string, error) {
	bad := func(msg string, args ...any) (string, error) {
		return "", apperr.Fieldf(apperr.Invalid, "origin", msg, append([]any{s}, args...)...)
	}
	scheme, rest, ok := strings.Cut(s, "://")
	scheme = strings.ToLower(scheme)
	if !ok || (scheme != "http" && scheme != "https") {
		return bad(msgOriginShape)
	}
	rest = strings.TrimSuffix(rest, "/")
	if rest == "" {
		return bad(msgOriginShape)
	}
	for i := 0; i < len(rest); i++ {
		// Only what a host and port are made of: no quote, semicolon,
		// comma, space, control or non-ASCII byte gets past here.
		if c := rest[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == ':' || c == '*' || c == '[' || c == ']') {
			return bad(msgOriginShape)
		}
	}
	if strings.HasPrefix(rest, "[") {
		return bad(msgOriginIPv6)
	}
	host, port, hasPort := strings.Cut(strings.ToLower(rest), ":")
	if hasPort {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || port[0] == '0' {
			return bad(msgOriginBadPort)
		}
		if (scheme == "https" && n == 443) || (scheme == "http" && n == 80) {
			hasPort = false
		}
	}
	name := host
	if strings.Contains(host, "*") {
		var ok bool
		name, ok = strings.CutPrefix(host, "*.")
		if !wildcard || !ok || strings.Contains(name, "*") {
			return bad(msgOriginWildcard)
		}
		if _, err := netip.ParseAddr(name); err == nil {
			return bad(msgOriginWildcard)
		}
	}
	if !dnsName(name) {
		return bad(msgOriginBadHostTxt)
	}
	if name != host {
		if suffix, _ := publicsuffix.PublicSuffix(name); suffix == name {
			return bad(msgOriginSuffix, suffix)
		}
	}
	out := scheme + "://" + host
	if hasPort {
		out += ":" + port
	}
	return out, nil
}

// dnsName reports whether h is a lowercase DNS name of LDH labels (an IPv4
// address is one too).
func dnsName(h string) bool {
	if h == "" || len(h) > maxHostLen {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// ValidOrigins is origins without those NormalizeOrigin refuses or would
// store otherwise: what may reach a CSP or match a request. latchd refuses
// to start with such a row (CheckStored); a project read while running
// (Lookup: a row another, older node wrote) gets its origins through here.
func ValidOrigins(origins []string) []string {
	out := make([]string, 0, len(origins))
	for _, o := range origins {
		if n, err := NormalizeOrigin(o); err == nil && n == o {
			out = append(out, o)
		}
	}
	return out
}

// matchWildcard reports whether origin (canonical) is a subdomain of the
// wildcard pattern's domain, same scheme and port. pattern is one of
// ValidOrigins.
func matchWildcard(pattern, origin string) bool {
	scheme, hostPort, ok := strings.Cut(pattern, "://*.")
	if !ok {
		return false
	}
	host, port, _ := strings.Cut(hostPort, ":")
	oScheme, oHostPort, ok := strings.Cut(origin, "://")
	oHost, oPort, _ := strings.Cut(oHostPort, ":")
	return ok && oScheme == scheme && oPort == port && strings.HasSuffix(oHost, "."+host)
}

// maxReturnURLLen bounds a return URL (it travels in a redirect's Location).
const maxReturnURLLen = 2048

// Messages of the return URL checks.
const (
	msgReturnURLShape  = "Return URL %q must be an http(s) URL without userinfo, spaces or quotes, at most 2048 characters"
	msgReturnURLOrigin = "Return URL %q is not on one of the project's origins"
	msgReturnURLListed = "returnUrl must be one of this project's return URLs"
	msgReturnURLPage   = "returnUrl must be a page of parentOrigin %s"
)

// splitReturnURL parses a return URL into its origin (ParseOrigin's form),
// the rest without the fragment (canonical: path and query as escaped) and
// the fragment ("#…", or "").
func splitReturnURL(s string) (origin, rest, fragment string, ok bool) {
	if len(s) > maxReturnURLLen {
		return "", "", "", false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '"' || c == '\'' || c == '<' || c == '>' || c == '\\' || c == '`' {
			return "", "", "", false
		}
	}
	u, err := url.Parse(s)
	if err != nil || u.User != nil || u.Opaque != "" || u.Host == "" {
		return "", "", "", false
	}
	origin, err = ParseOrigin(u.Scheme + "://" + u.Host)
	if err != nil {
		return "", "", "", false
	}
	rest = u.EscapedPath()
	if rest == "" {
		rest = "/"
	}
	if u.RawQuery != "" || u.ForceQuery {
		rest += "?" + u.RawQuery
	}
	if u.Fragment != "" {
		fragment = "#" + u.EscapedFragment()
	}
	return origin, rest, fragment, true
}

// normalizeReturnURL checks one of the project's listed return URLs: an
// http(s) URL on one of its origins, without a fragment (the fragment of
// the page's own URL is kept when it comes back, never compared).
func (p *Project) normalizeReturnURL(s string) (string, error) {
	origin, rest, fragment, ok := splitReturnURL(strings.TrimSpace(s))
	if !ok || fragment != "" {
		return "", apperr.Fieldf(apperr.Invalid, "returnUrl", msgReturnURLShape, s)
	}
	if !p.AllowsOrigin(origin, p.Dev) {
		return "", apperr.Fieldf(apperr.Invalid, "returnUrl", msgReturnURLOrigin, s)
	}
	return origin + rest, nil
}

// CheckReturnURL checks the page a social login in redirect mode comes back
// to (a Telegram mini-app's page). When the project lists return URLs, it
// must be one of them exactly (its fragment aside) on pageOrigin; when it
// lists none, a page of pageOrigin: the page that starts the login, as the
// frame reports it. Either way it is on the starting page's origin, where
// the frame that keeps the login's PKCE verifier is. It returns the URL to
// send the visitor back to.
func (p *Project) CheckReturnURL(s, pageOrigin string) (string, error) {
	origin, rest, fragment, ok := splitReturnURL(s)
	if len(p.ReturnURLs) > 0 {
		for _, listed := range p.ReturnURLs {
			if ok && origin == pageOrigin && listed == origin+rest {
				return origin + rest + fragment, nil
			}
		}
		return "", apperr.Fieldf(apperr.Invalid, "returnUrl", msgReturnURLListed)
	}
	if !ok || origin != pageOrigin {
		return "", apperr.Fieldf(apperr.Invalid, "returnUrl", msgReturnURLPage, truncate(pageOrigin, 100))
	}
	return origin + rest + fragment, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return strings.ToValidUTF8(s[:n], "")
	}
	return s
}
