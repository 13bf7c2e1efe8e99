package explorer

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/caip"
)

// Page sizes of GET /getWallets. The client asks for 40 (list), 100 (search),
// 4 (recommended) or 20 (ranks) (api-shapes §1.1, spec §9).
const (
	DefaultEntries = 40
	MaxEntries     = 100
)

// Limits on list parameters, so one request cannot make a search expensive.
const (
	maxListItems  = 500
	maxListBytes  = 64 << 10
	maxSearchLen  = 256
	maxOptionLen  = 64
	maxPageNumber = int(^uint(0) >> 1)
)

// Filter is a parsed GET /getWallets query. Zero values mean "not given":
// Page 0 is page 1 and Entries 0 is DefaultEntries.
type Filter struct {
	Page           int      // 1-based
	Entries        int      // page size; above MaxEntries is clamped
	Search         string   // case-insensitive match on name and slug
	Include        []string // keep only these wallet ids
	Exclude        []string // drop these wallet ids
	Chains         []string // CAIP-2 ids; see matchChains
	Badge          string   // "", "none" or "certified"
	Names          []string // case-insensitive exact names
	RDNS           []string // EIP-6963 rdns values
	Platform       string   // "", "ios", "android", "browser" or "desktop"
	IncludePayOnly bool     // accepted; the registry has no pay-only wallets
	Sort           string   // "", "default" or "wcpay"
}

// ParseFilter reads a GET /getWallets query. Unknown parameters are ignored,
// because clients add their own (projectId, st, sv, clientId, …). Errors are
// *apperr.Error with code invalid and the parameter as field; values are
// checked further by Search.
func ParseFilter(q url.Values) (Filter, error) {
	var f Filter
	var err error
	if f.Page, err = positiveInt(q, "page"); err != nil {
		return Filter{}, err
	}
	if f.Entries, err = positiveInt(q, "entries"); err != nil {
		return Filter{}, err
	}
	f.Search = strings.TrimSpace(q.Get("search"))
	if len(f.Search) > maxSearchLen {
		return Filter{}, apperr.Fieldf(apperr.Invalid, "search", "search is longer than %d characters", maxSearchLen)
	}
	lists := []struct {
		name string
		dst  *[]string
	}{
		{"include", &f.Include}, {"exclude", &f.Exclude}, {"chains", &f.Chains}, {"names", &f.Names}, {"rdns", &f.RDNS},
	}
	for _, l := range lists {
		if *l.dst, err = list(q, l.name); err != nil {
			return Filter{}, err
		}
	}
	for _, name := range []string{"badge_type", "badge", "platform", "include_pay_only", "sort"} {
		if len(q.Get(name)) > maxOptionLen {
			return Filter{}, apperr.Fieldf(apperr.Invalid, name, "%s is longer than %d characters", name, maxOptionLen)
		}
	}
	// The client sends badge_type from the list and search views and badge from
	// the ranks prefetch (api-shapes §1.1); both are accepted, and either being
	// certified restricts the list.
	badgeType, badge := q.Get("badge_type"), q.Get("badge")
	if err := checkBadge("badge_type", badgeType); err != nil {
		return Filter{}, err
	}
	if err := checkBadge("badge", badge); err != nil {
		return Filter{}, err
	}
	f.Badge = badgeType
	if badge == BadgeCertified || badgeType == "" {
		f.Badge = badge
	}
	f.Platform = q.Get("platform")
	switch v := q.Get("include_pay_only"); v {
	case "":
	case "true":
		f.IncludePayOnly = true
	default:
		return Filter{}, apperr.Fieldf(apperr.Invalid, "include_pay_only", "include_pay_only must be \"true\" or absent, not %q", v)
	}
	f.Sort = q.Get("sort")
	return f, nil
}

func checkBadge(field, v string) error {
	switch v {
	case "", BadgeNone, BadgeCertified:
		return nil
	}
	return apperr.Fieldf(apperr.Invalid, field, "%s must be %q or %q, not %q", field, BadgeNone, BadgeCertified, v)
}

// positiveInt reads an optional integer >= 1. An integer too large for an int
// is read as the largest int, so "entries" is clamped and "page" is past the
// end, rather than either being refused.
func positiveInt(q url.Values, name string) (int, error) {
	v := q.Get(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	var numErr *strconv.NumError
	if err != nil && errors.As(err, &numErr) && numErr.Err == strconv.ErrRange && v[0] != '-' {
		return maxPageNumber, nil
	}
	if err != nil {
		return 0, apperr.Fieldf(apperr.Invalid, name, "%s must be an integer, not %q", name, truncate(v, 32))
	}
	if n < 1 {
		return 0, apperr.Fieldf(apperr.Invalid, name, "%s must be at least 1", name)
	}
	return n, nil
}

// list reads a comma-joined parameter, dropping empty items ("a,,b", a
// trailing comma or an empty value, which clients send for empty arrays).
func list(q url.Values, name string) ([]string, error) {
	v := q.Get(name)
	if v == "" {
		return nil, nil
	}
	if len(v) > maxListBytes {
		return nil, apperr.Fieldf(apperr.Invalid, name, "%s is longer than %d bytes", name, maxListBytes)
	}
	if strings.Count(v, ",") >= maxListItems {
		return nil, apperr.Fieldf(apperr.Invalid, name, "%s has more than %d items", name, maxListItems)
	}
	parts := strings.Split(v, ",")
	out := parts[:0]
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out, nil
}

// Page is one page of search results.
type Page struct {
	Count   int       // wallets matching the filter, before paging
	Wallets []*Wallet // this page's wallets; shared, do not modify
	bodies  [][]byte
}

// AppendJSON appends the page as {"count":N,"data":[…]}, the response of
// GET /getWallets, using each wallet's JSON encoded at load.
func (p Page) AppendJSON(b []byte) []byte {
	b = append(b, `{"count":`...)
	b = strconv.AppendInt(b, int64(p.Count), 10)
	b = append(b, `,"data":[`...)
	for i, body := range p.bodies {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, body...)
	}
	return append(b, "]}"...)
}

// MarshalJSON encodes the page as AppendJSON does.
func (p Page) MarshalJSON() ([]byte, error) { return p.AppendJSON(nil), nil }

// Search returns the page of wallets matching f. Wallets matching the search
// text at the start of their name or slug come before those matching inside
// it; within each group, and without search text, wallets are ordered by
// order, then name. An invalid filter returns an *apperr.Error with code
// invalid and the parameter as field. Search reads only the in-memory snapshot.
func (s *Service) Search(f Filter) (Page, error) {
	m, err := newMatcher(f)
	if err != nil {
		return Page{}, err
	}
	page, entries := f.Page, f.Entries
	if page == 0 {
		page = 1
	}
	switch {
	case entries == 0:
		entries = DefaultEntries
	case entries > MaxEntries:
		entries = MaxEntries
	}
	snap := s.snap.Load()
	prefix := make([]*entry, 0, len(snap.sorted))
	var inner []*entry
	for _, e := range snap.sorted {
		if !m.match(e) {
			continue
		}
		if m.search == "" || strings.HasPrefix(e.name, m.search) || strings.HasPrefix(e.slug, m.search) {
			prefix = append(prefix, e)
		} else {
			inner = append(inner, e)
		}
	}
	matches := append(prefix, inner...)
	if f.Sort == "wcpay" {
		matches = wcpayFirst(matches)
	}
	out := Page{Count: len(matches)}
	if start := (page - 1); start < (len(matches)+entries-1)/entries {
		lo := start * entries
		hi := min(lo+entries, len(matches))
		out.Wallets = make([]*Wallet, 0, hi-lo)
		out.bodies = make([][]byte, 0, hi-lo)
		for _, e := range matches[lo:hi] {
			out.Wallets = append(out.Wallets, e.w)
			out.bodies = append(out.bodies, e.json)
		}
	}
	return out, nil
}

// wcpayFirst moves wallets supporting WalletConnect Pay to the front, keeping
// the order within both groups.
func wcpayFirst(es []*entry) []*entry {
	out := make([]*entry, 0, len(es))
	for _, e := range es {
		if e.w.SupportsWCPay {
			out = append(out, e)
		}
	}
	for _, e := range es {
		if !e.w.SupportsWCPay {
			out = append(out, e)
		}
	}
	return out
}

// matcher is a validated Filter in the form a scan needs.
type matcher struct {
	search    string
	include   map[string]bool
	exclude   map[string]bool
	chains    []string
	anyEVM    bool
	certified bool
	names     map[string]bool
	rdns      map[string]bool
	platform  string
}

func newMatcher(f Filter) (*matcher, error) {
	if f.Page < 0 {
		return nil, apperr.Fieldf(apperr.Invalid, "page", "page must be at least 1")
	}
	if f.Entries < 0 {
		return nil, apperr.Fieldf(apperr.Invalid, "entries", "entries must be at least 1")
	}
	m := &matcher{search: strings.ToLower(strings.TrimSpace(f.Search)), platform: f.Platform}
	if err := checkBadge("badge_type", f.Badge); err != nil {
		return nil, err
	}
	m.certified = f.Badge == BadgeCertified
	switch f.Platform {
	case "", "ios", "android", "browser", "desktop":
	default:
		return nil, apperr.Fieldf(apperr.Invalid, "platform", "platform must be ios, android, browser or desktop, not %q", truncate(f.Platform, 32))
	}
	switch f.Sort {
	case "", "default", "wcpay":
	default:
		return nil, apperr.Fieldf(apperr.Invalid, "sort", "sort must be default or wcpay, not %q", truncate(f.Sort, 32))
	}
	for _, c := range f.Chains {
		id, err := caip.ParseChainID(c)
		if err != nil {
			return nil, apperr.Fieldf(apperr.Invalid, "chains", "%s", err.Error())
		}
		m.chains = append(m.chains, id.String())
		if id.Namespace == "eip155" {
			m.anyEVM = true
		}
	}
	m.include = idSet(f.Include)
	m.exclude = idSet(f.Exclude)
	m.names = lowerSet(f.Names)
	m.rdns = lowerSet(f.RDNS)
	return m, nil
}

func idSet(ids []string) map[string]bool {
	if len(ids) == 0 {
		return nil
	}
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[strings.ToLower(id)] = true // registry ids are lowercase hex
	}
	return m
}

func lowerSet(vs []string) map[string]bool {
	if len(vs) == 0 {
		return nil
	}
	m := make(map[string]bool, len(vs))
	for _, v := range vs {
		m[strings.ToLower(v)] = true
	}
	return m
}

func (m *matcher) match(e *entry) bool {
	switch {
	case m.include != nil && !m.include[e.w.ID],
		m.exclude[e.w.ID],
		m.certified && !e.certified,
		m.names != nil && !m.names[e.name],
		m.rdns != nil && (e.rdns == "" || !m.rdns[e.rdns]),
		m.chains != nil && !m.matchChains(e),
		!m.matchPlatform(e),
		m.search != "" && !strings.Contains(e.name, m.search) && !strings.Contains(e.slug, m.search):
		return false
	}
	return true
}

// matchChains keeps a wallet that lists any requested chain. A wallet that
// lists any eip155 chain also matches every requested eip155 chain: chains in
// wallets.json is a lower bound, and most EVM wallets accept any EVM chain the
// dapp adds (data/SOURCES.md), so requiring the exact chain would hide
// MetaMask from a dapp on, say, Gnosis. Other namespaces need an exact match,
// because their references name distinct networks a wallet must support.
func (m *matcher) matchChains(e *entry) bool {
	if m.anyEVM && e.evm {
		return true
	}
	for _, c := range m.chains {
		if e.chains[c] {
			return true
		}
	}
	return false
}

func (m *matcher) matchPlatform(e *entry) bool {
	switch m.platform {
	case "ios":
		return e.ios
	case "android":
		return e.android
	case "browser":
		return e.browser
	case "desktop":
		return e.desktop
	}
	return true
}
