package explorer

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/latchkit/latch/data"
	"github.com/latchkit/latch/internal/apperr"
)

func names(p Page) []string {
	out := make([]string, 0, len(p.Wallets))
	for _, w := range p.Wallets {
		out = append(out, w.Slug)
	}
	return out
}

func search(tb testing.TB, s *Service, query string) (Page, error) {
	tb.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		tb.Fatal(err)
	}
	f, err := ParseFilter(q)
	if err != nil {
		return Page{}, err
	}
	return s.Search(f)
}

func TestService_Search(t *testing.T) {
	s := mustService(t, mustJSON(t, fixture()))
	all := []string{"metamask", "trust-wallet", "phantom", "xverse", "rabby", "ronin", "sequence", "ledger-live", "wallet3", "zeta"}
	evm := []string{"metamask", "trust-wallet", "phantom", "rabby", "ronin", "sequence", "ledger-live", "wallet3", "zeta"}
	mm, tw, ph := idOf("metamask"), idOf("trust-wallet"), idOf("phantom")

	tests := []struct {
		name  string
		query string
		want  []string
		count int // -1: len(want)
	}{
		{"All", "", all, -1},
		{"UnknownParamsIgnored", "projectId=p&st=appkit&sv=html-core-1.8.24&clientId=did:key:z6&foo=bar", all, -1},
		{"Entries", "entries=3", all[:3], 10},
		{"Page2", "entries=3&page=2", all[3:6], 10},
		{"LastPartialPage", "entries=3&page=4", all[9:], 10},
		{"PastTheEnd", "entries=3&page=5", nil, 10},
		{"HugePage", "page=99999999999999999999999", nil, 10},
		{"HugeEntriesClamped", "entries=99999999999999999999999", all, -1},

		{"SearchPrefix", "search=meta", []string{"metamask"}, -1},
		{"SearchTrimmedCaseless", "search=%20%20META%20", []string{"metamask"}, -1},
		{"SearchPrefixBeforeSubstring", "search=wallet", []string{"wallet3", "trust-wallet", "rabby", "ronin", "sequence"}, -1},
		{"SearchSlug", "search=ledger-l", []string{"ledger-live"}, -1},
		{"SearchNoMatch", "search=nothing", nil, 0},
		{"SearchBlank", "search=%20", all, -1},

		{"Include", "include=" + ph + "," + mm, []string{"metamask", "phantom"}, -1},
		{"IncludeUpperCase", "include=" + strings.ToUpper(mm), []string{"metamask"}, -1},
		{"IncludeUnknown", "include=abc", nil, 0},
		{"IncludeEmptyItems", "include=,,", all, -1},
		{"Exclude", "exclude=" + mm + "," + tw, all[2:], -1},
		{"IncludeAndExclude", "include=" + mm + "," + tw + "&exclude=" + mm, []string{"trust-wallet"}, -1},

		{"ChainsEVMAnyNamespace", "chains=eip155:1", evm, -1},
		{"ChainsEVMUndeclared", "chains=eip155:999999", evm, -1},
		{"ChainsSolana", "chains=" + solanaMain, []string{"trust-wallet", "phantom"}, -1},
		{"ChainsBitcoin", "chains=" + bitcoinMain, []string{"xverse"}, -1},
		{"ChainsAny", "chains=" + solanaMain + "," + bitcoinMain, []string{"trust-wallet", "phantom", "xverse"}, -1},
		{"ChainsUnknownSolana", "chains=solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", nil, 0},

		{"BadgeCertified", "badge_type=certified", []string{"metamask", "trust-wallet"}, -1},
		{"BadgeAlias", "badge=certified", []string{"metamask", "trust-wallet"}, -1},
		{"BadgeNoneKeepsAll", "badge_type=none", all, -1},
		{"BadgeEitherCertified", "badge_type=none&badge=certified", []string{"metamask", "trust-wallet"}, -1},

		{"Names", "names=PHANTOM,metamask", []string{"metamask", "phantom"}, -1},
		{"NamesExactOnly", "names=Meta", nil, 0},
		{"RDNS", "rdns=IO.METAMASK,app.phantom", []string{"metamask", "phantom"}, -1},

		{"PlatformIOS", "platform=ios", []string{"metamask", "trust-wallet", "xverse", "sequence", "wallet3"}, -1},
		{"PlatformAndroid", "platform=android", []string{"metamask", "trust-wallet", "ronin", "sequence", "wallet3"}, -1},
		{"PlatformBrowser", "platform=browser", []string{"metamask", "phantom", "rabby"}, -1},
		{"PlatformDesktop", "platform=desktop", []string{"ledger-live"}, -1},

		{"SortDefault", "sort=default", all, -1},
		{"SortWCPay", "sort=wcpay&entries=2", []string{"sequence", "metamask"}, 10},
		{"IncludePayOnly", "include_pay_only=true", all, -1},

		{"SearchChainsPlatformPaged", "search=wallet&chains=eip155:1&platform=ios&entries=2", []string{"wallet3", "trust-wallet"}, 3},
		{"SearchChainsPlatformPage2", "search=wallet&chains=eip155:1&platform=ios&entries=2&page=2", []string{"sequence"}, 3},
		{"CertifiedSolana", "badge_type=certified&chains=" + solanaMain, []string{"trust-wallet"}, -1},
		{"IncludeExcludeSearch", "include=" + mm + "," + tw + "," + ph + "&exclude=" + tw + "&search=m", []string{"metamask", "phantom"}, -1},
		{"RDNSAndChains", "rdns=app.phantom&chains=" + bitcoinMain, nil, 0},
		{"NamesAndBadge", "names=Phantom,MetaMask&badge=certified", []string{"metamask"}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := search(t, s, tt.query)
			if err != nil {
				t.Fatal(err)
			}
			if got := names(p); !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
				t.Errorf("wallets = %v, want %v", got, tt.want)
			}
			count := tt.count
			if count < 0 {
				count = len(tt.want)
			}
			if p.Count != count {
				t.Errorf("count = %d, want %d", p.Count, count)
			}
		})
	}
}

func TestService_SearchSeedData(t *testing.T) {
	s := mustService(t, data.Wallets)
	total := s.Len()

	t.Run("EntriesDefault", func(t *testing.T) {
		p, _ := search(t, s, "")
		if len(p.Wallets) != DefaultEntries || p.Count != total {
			t.Errorf("got %d of %d, want %d of %d", len(p.Wallets), p.Count, DefaultEntries, total)
		}
	})
	t.Run("EntriesClamped", func(t *testing.T) {
		p, _ := search(t, s, "entries=500")
		if len(p.Wallets) != MaxEntries || p.Count != total {
			t.Errorf("got %d of %d, want %d of %d", len(p.Wallets), p.Count, MaxEntries, total)
		}
	})
	t.Run("MetaMaskFirst", func(t *testing.T) {
		p, _ := search(t, s, "search=meta&entries=100")
		if len(p.Wallets) == 0 || p.Wallets[0].Slug != "metamask" {
			t.Errorf("search meta = %v", names(p))
		}
	})
	t.Run("PrefixBeforeSubstring", func(t *testing.T) {
		p, _ := search(t, s, "search=wa&entries=100")
		seenInner := false
		for _, w := range p.Wallets {
			prefix := strings.HasPrefix(strings.ToLower(w.Name), "wa") || strings.HasPrefix(w.Slug, "wa")
			if prefix && seenInner {
				t.Fatalf("prefix match %s after a substring match: %v", w.Name, names(p))
			}
			seenInner = seenInner || !prefix
		}
		if p.Count < 10 {
			t.Errorf("search wa matched only %d", p.Count)
		}
	})
	t.Run("PagesCoverAll", func(t *testing.T) {
		seen := map[string]bool{}
		for page := 1; ; page++ {
			p, err := s.Search(Filter{Page: page, Entries: 7})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Wallets) == 0 {
				break
			}
			for _, w := range p.Wallets {
				if seen[w.ID] {
					t.Fatalf("%s on two pages", w.Slug)
				}
				seen[w.ID] = true
			}
		}
		if len(seen) != total {
			t.Errorf("pages hold %d wallets, want %d", len(seen), total)
		}
	})
}

func TestParseFilter_Errors(t *testing.T) {
	s := mustService(t, mustJSON(t, fixture()))
	many := strings.Repeat("a,", maxListItems) + "a"
	long := strings.Repeat("a", maxListBytes+1)
	tests := []struct {
		name, query, field, message string
	}{
		{"PageZero", "page=0", "page", "page must be at least 1"},
		{"PageNegative", "page=-1", "page", "page must be at least 1"},
		{"PageNotInt", "page=abc", "page", `page must be an integer, not "abc"`},
		{"PageFraction", "page=1.5", "page", "page must be an integer"},
		{"PageHugeNegative", "page=-99999999999999999999", "page", "page must be an integer"},
		{"EntriesZero", "entries=0", "entries", "entries must be at least 1"},
		{"EntriesNotInt", "entries=ten", "entries", "entries must be an integer"},
		{"SearchTooLong", "search=" + strings.Repeat("x", maxSearchLen+1), "search", "search is longer than 256"},
		{"ChainsNoReference", "chains=eip155", "chains", "Invalid CAIP-2 network id: eip155"},
		{"ChainsUnknownNamespace", "chains=eip155:1,foo:1", "chains", "Invalid CAIP-2 network id: foo:1"},
		{"ChainsLeadingZero", "chains=eip155:01", "chains", "Invalid CAIP-2 network id: eip155:01"},
		{"BadgeType", "badge_type=gold", "badge_type", `badge_type must be "none" or "certified", not "gold"`},
		{"Badge", "badge=none2", "badge", "badge must be"},
		{"BadgeTooLong", "badge=" + strings.Repeat("c", 100), "badge", "badge is longer than 64"},
		{"Platform", "platform=windows", "platform", `platform must be ios, android, browser or desktop, not "windows"`},
		{"IncludePayOnlyFalse", "include_pay_only=false", "include_pay_only", `include_pay_only must be "true" or absent`},
		{"IncludePayOnlyOne", "include_pay_only=1", "include_pay_only", "include_pay_only must be"},
		{"Sort", "sort=popular", "sort", `sort must be default or wcpay, not "popular"`},
		{"IncludeTooMany", "include=" + many, "include", "include has more than 500 items"},
		{"ExcludeTooMany", "exclude=" + many, "exclude", "exclude has more than 500 items"},
		{"ChainsTooLong", "chains=" + long, "chains", "chains is longer than 65536 bytes"},
		{"NamesTooLong", "names=" + long, "names", "names is longer than"},
		{"RDNSTooMany", "rdns=" + many, "rdns", "rdns has more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := search(t, s, tt.query)
			e := apperr.As(err)
			if e == nil || e.Code != apperr.Invalid {
				t.Fatalf("err = %v, want invalid", err)
			}
			if e.Field != tt.field || !strings.Contains(e.Message, tt.message) {
				t.Errorf("got %s: %q, want %s: %q", e.Field, e.Message, tt.field, tt.message)
			}
		})
	}
	t.Run("ListAtLimit", func(t *testing.T) {
		if _, err := search(t, s, "include="+strings.Repeat("a,", maxListItems-1)+"a"); err != nil {
			t.Errorf("500 items: %v", err)
		}
	})
	t.Run("FilterValidatedBySearch", func(t *testing.T) {
		for _, f := range []Filter{{Page: -1}, {Entries: -1}, {Badge: "gold"}, {Chains: []string{"x"}}, {Platform: "tv"}, {Sort: "x"}} {
			if _, err := s.Search(f); apperr.Code(err) != apperr.Invalid {
				t.Errorf("Search(%+v) err = %v, want invalid", f, err)
			}
		}
	})
}

// BenchmarkSearch measures the search the modal runs while a user types.
func BenchmarkSearch(b *testing.B) {
	s := mustService(b, data.Wallets)
	f := Filter{Search: "wa", Chains: []string{"eip155:1"}, Entries: 40}
	b.ReportAllocs()
	for b.Loop() {
		p, err := s.Search(f)
		if err != nil || p.Count == 0 {
			b.Fatal(err, p.Count)
		}
	}
}

// BenchmarkSearchParallel runs the same search from many goroutines, as 64
// concurrent clients would.
func BenchmarkSearchParallel(b *testing.B) {
	s := mustService(b, data.Wallets)
	f := Filter{Search: "wa", Chains: []string{"eip155:1"}, Entries: 40}
	b.ReportAllocs()
	b.SetParallelism(32)
	b.RunParallel(func(pb *testing.PB) {
		var buf []byte
		for pb.Next() {
			p, _ := s.Search(f)
			buf = p.AppendJSON(buf[:0])
		}
	})
}

func TestPage_Encoding(t *testing.T) {
	s := mustService(t, mustJSON(t, fixture()))
	for _, f := range []Filter{{Search: "nothing"}, {Entries: 1}, {}, {Page: 2, Entries: 3}} {
		p, err := s.Search(f)
		if err != nil {
			t.Fatal(err)
		}
		want := p.AppendJSON(nil)
		if got, _ := p.MarshalJSON(); string(got) != string(want) {
			t.Errorf("%+v: MarshalJSON %q, AppendJSON %q", f, got, want)
		}
		var decoded struct {
			Count int               `json:"count"`
			Data  []json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(want, &decoded); err != nil || decoded.Count != p.Count || len(decoded.Data) != len(p.Wallets) {
			t.Errorf("%+v: %s does not decode: %v", f, want, err)
		}
		if m, _ := json.Marshal(p); string(m) != string(want) {
			t.Errorf("MarshalJSON = %s", m)
		}
	}
}
