package explorer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/data"
	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

const (
	solanaMain  = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
	bitcoinMain = "bip122:000000000019d6689c085ae165831e93"
)

// idOf is the registry id of a slug (data/SOURCES.md).
func idOf(slug string) string {
	sum := sha256.Sum256([]byte(slug))
	return hex.EncodeToString(sum[:])
}

func ptr[T any](v T) *T { return &v }

// fixture is a small registry that exercises every filter. Wallets are listed
// out of order so that sorting by order is visible.
func fixture() []*Wallet {
	w := func(slug, name string, order int, chains ...string) *Wallet {
		return &Wallet{ID: idOf(slug), Slug: slug, Name: name, Homepage: ptr("https://" + slug + ".example"),
			Order: ptr(order), Chains: chains, BadgeType: BadgeNone, SupportsWC: true}
	}
	metamask := w("metamask", "MetaMask", 1, "eip155:1", "eip155:137")
	metamask.BadgeType = BadgeCertified
	metamask.RDNS = ptr("io.metamask")
	metamask.MobileLink = ptr("metamask://")
	metamask.AppStore = ptr("https://apps.apple.com/app/id1438144202")
	metamask.PlayStore = ptr("https://play.google.com/store/apps/details?id=io.metamask")
	metamask.ChromeStore = ptr("https://chromewebstore.google.com/detail/nkbihfbeogaeaoehlefnkodbefgpgknn")
	metamask.Injected = []Injected{{Namespace: "eip155", InjectedID: "isMetaMask"}}

	trust := w("trust-wallet", "Trust Wallet", 2, "eip155:1", "eip155:56", solanaMain)
	trust.BadgeType = BadgeCertified
	trust.MobileLink = ptr("trust://")
	trust.AppStore = ptr("https://apps.apple.com/app/id1288339409")
	trust.PlayStore = ptr("https://play.google.com/store/apps/details?id=com.wallet.crypto.trustapp")

	phantom := w("phantom", "Phantom", 3, solanaMain, "eip155:1")
	phantom.RDNS = ptr("app.phantom")
	phantom.SupportsWC = false
	phantom.AppStore = ptr("https://apps.apple.com/app/id1598432977")
	phantom.Injected = []Injected{{Namespace: "solana", InjectedID: "isPhantom"}}

	xverse := w("xverse", "Xverse", 4, bitcoinMain)
	xverse.MobileLink = ptr("xverse://")
	xverse.AppStore = ptr("https://apps.apple.com/app/id1552272513")

	rabby := w("rabby", "Rabby Wallet", 5, "eip155:1")
	rabby.ChromeStore = ptr("https://chromewebstore.google.com/detail/acmacodkjbdgmoleebolmdjonilkdbch")

	ronin := w("ronin", "Ronin Wallet", 6, "eip155:2020")
	ronin.MobileLink = ptr("roninwallet://")
	ronin.PlayStore = ptr("https://play.google.com/store/apps/details?id=com.skymavis.genesis")

	sequence := w("sequence", "Sequence Wallet", 7, "eip155:137")
	sequence.WebappLink = ptr("https://sequence.app")
	sequence.SupportsWCPay = true

	ledger := w("ledger-live", "Ledger Live", 8, "eip155:1")
	ledger.DesktopLink = ptr("ledgerlive://")

	wallet3 := w("wallet3", "Wallet3", 9, "eip155:1")
	wallet3.MobileLink = ptr("wallet3://")
	wallet3.AppStore = ptr("https://apps.apple.com/app/id1597395741")
	wallet3.PlayStore = ptr("https://play.google.com/store/apps/details?id=jp.co.chainbow.wallet3")

	zeta := w("zeta", "Zeta", 0, "eip155:10")
	zeta.Order = nil
	zeta.Homepage = nil
	zeta.Description = "A wallet without a rank"

	return []*Wallet{zeta, wallet3, metamask, trust, phantom, xverse, rabby, ronin, sequence, ledger}
}

func mustJSON(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// mustService returns a Service on a fresh SQLite database with ws loaded.
func mustService(tb testing.TB, raw []byte) *Service {
	tb.Helper()
	s := New(storetest.MustOpenSQLite(tb))
	if err := s.Load(context.Background(), raw); err != nil {
		tb.Fatalf("Load: %v", err)
	}
	return s
}

type walletRow struct {
	ID, Slug, Data string
	Position       int
	UpdatedAt      int64
}

func readRows(tb testing.TB, db *store.DB) map[string]walletRow {
	tb.Helper()
	rows, err := db.Query(context.Background(), `SELECT id, slug, position, data, updated_at FROM wallets`)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	out := map[string]walletRow{}
	for rows.Next() {
		var r walletRow
		if err := rows.Scan(&r.ID, &r.Slug, &r.Position, &r.Data, &r.UpdatedAt); err != nil {
			tb.Fatal(err)
		}
		out[r.Slug] = r
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

func TestService_Load(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		clock := time.Unix(1_700_000_000, 0)
		db.Now = func() time.Time { return clock }
		s := New(db)
		ws := fixture()

		t.Run("OK", func(t *testing.T) {
			if err := s.Load(ctx, mustJSON(t, ws)); err != nil {
				t.Fatal(err)
			}
			rows := readRows(t, db)
			if len(rows) != len(ws) || s.Len() != len(ws) {
				t.Fatalf("rows = %d, snapshot = %d, want %d", len(rows), s.Len(), len(ws))
			}
			for i, w := range ws {
				r := rows[w.Slug]
				if r.ID != w.ID || r.Position != i || r.UpdatedAt != clock.Unix() {
					t.Errorf("%s: row %+v, want id %s position %d", w.Slug, r, w.ID, i)
				}
				if r.Data != string(mustJSON(t, w)) {
					t.Errorf("%s: data = %s", w.Slug, r.Data)
				}
			}
		})

		t.Run("Idempotent", func(t *testing.T) {
			clock = clock.Add(time.Hour)
			if err := s.Load(ctx, mustJSON(t, ws)); err != nil {
				t.Fatal(err)
			}
			for slug, r := range readRows(t, db) {
				if r.UpdatedAt != clock.Add(-time.Hour).Unix() {
					t.Errorf("%s: updated_at changed on an identical load", slug)
				}
			}
		})

		t.Run("RemovesDroppedAndUpdates", func(t *testing.T) {
			clock = clock.Add(time.Hour)
			changed := fixture()[2:] // drops zeta and wallet3; positions shift
			changed[0].Name = "MetaMask Mobile"
			if err := s.Load(ctx, mustJSON(t, changed)); err != nil {
				t.Fatal(err)
			}
			rows := readRows(t, db)
			if len(rows) != len(changed) {
				t.Fatalf("rows = %d, want %d", len(rows), len(changed))
			}
			if _, ok := rows["zeta"]; ok {
				t.Error("zeta was not removed")
			}
			if r := rows["metamask"]; r.Position != 0 || r.UpdatedAt != clock.Unix() || !strings.Contains(r.Data, "MetaMask Mobile") {
				t.Errorf("metamask row = %+v", r)
			}
			if w, _ := s.Wallet(idOf("metamask")); w == nil || w.Name != "MetaMask Mobile" {
				t.Errorf("snapshot not refreshed: %+v", w)
			}
			if _, ok := s.Wallet(idOf("zeta")); ok {
				t.Error("zeta still in snapshot")
			}
		})

		t.Run("InvalidChangesNothing", func(t *testing.T) {
			before := readRows(t, db)
			bad := fixture()
			bad[3].ID = "nope"
			if err := s.Load(ctx, mustJSON(t, bad)); apperr.Code(err) != apperr.Invalid {
				t.Fatalf("err = %v, want invalid", err)
			}
			if after := readRows(t, db); len(after) != len(before) {
				t.Errorf("rows changed: %d → %d", len(before), len(after))
			}
		})

		t.Run("Reload", func(t *testing.T) {
			other := New(db) // a second node sharing the database
			if other.Len() != 0 {
				t.Fatal("new service is not empty")
			}
			if err := other.Reload(ctx); err != nil {
				t.Fatal(err)
			}
			if other.Len() != s.Len() {
				t.Fatalf("reloaded %d wallets, want %d", other.Len(), s.Len())
			}
			a, _ := s.Search(Filter{})
			b, _ := other.Search(Filter{})
			if !bytes.Equal(a.AppendJSON(nil), b.AppendJSON(nil)) {
				t.Error("reloaded snapshot answers differently")
			}
		})
	})
}

func TestService_LoadSeedData(t *testing.T) {
	s := mustService(t, data.Wallets)
	if s.Len() < 100 {
		t.Fatalf("seed registry has %d wallets", s.Len())
	}
	p, err := s.Search(Filter{Search: "meta"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Wallets) == 0 || p.Wallets[0].Name != "MetaMask" {
		t.Fatalf("search meta: first = %v", names(p))
	}
}

func TestParseRegistry_Errors(t *testing.T) {
	entry := func(mut func(m map[string]any)) map[string]any {
		m := map[string]any{"id": idOf("alpha"), "slug": "alpha", "name": "Alpha", "chains": []string{"eip155:1"}}
		if mut != nil {
			mut(m)
		}
		return m
	}
	doc := func(entries ...map[string]any) []byte { return mustJSON(t, entries) }
	second := func(mut func(m map[string]any)) []byte {
		return doc(entry(nil), entry(func(m map[string]any) {
			m["id"], m["slug"], m["name"] = idOf("beta"), "beta", "Beta"
			mut(m)
		}))
	}
	tests := []struct {
		name string
		raw  []byte
		want string // in the message
	}{
		{"NotArray", []byte(`{"id":"x"}`), "JSON array"},
		{"BadJSON", []byte(`[`), "JSON array"},
		{"Empty", []byte(`[]`), "holds no wallets"},
		{"ShortID", second(func(m map[string]any) { m["id"] = "abc" }), `entry 1 ("beta"): id must be 64`},
		{"UpperID", second(func(m map[string]any) { m["id"] = strings.ToUpper(idOf("beta")) }), `entry 1 ("beta"): id`},
		{"MissingID", second(func(m map[string]any) { delete(m, "id") }), "id must be"},
		{"BadSlug", second(func(m map[string]any) { m["slug"] = "Beta Wallet" }), "slug must be"},
		{"MissingSlug", second(func(m map[string]any) { delete(m, "slug") }), "entry 1: slug must be"},
		{"MissingName", second(func(m map[string]any) { delete(m, "name") }), `entry 1 ("beta"): name must be`},
		{"BlankName", second(func(m map[string]any) { m["name"] = "  " }), "name must be"},
		{"DuplicateID", second(func(m map[string]any) { m["id"] = idOf("alpha") }), `entry 1 ("beta"): duplicate id ` + idOf("alpha") + " (also entry 0)"},
		{"DuplicateSlug", second(func(m map[string]any) { m["slug"] = "alpha" }), `entry 1 ("alpha"): duplicate slug "alpha" (also entry 0)`},
		{"UnknownField", second(func(m map[string]any) { m["homepgae"] = "x" }), `entry 1 ("beta"): not a valid wallet: json: unknown field "homepgae"`},
		{"WrongType", second(func(m map[string]any) { m["order"] = "first" }), `entry 1 ("beta"): not a valid wallet`},
		{"BadChain", second(func(m map[string]any) { m["chains"] = []string{"eip155"} }), "Invalid CAIP-2 network id: eip155"},
		{"BadBadge", second(func(m map[string]any) { m["badge_type"] = "gold" }), "badge_type must be"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseRegistry(tt.raw)
			e := apperr.As(err)
			if e == nil || e.Code != apperr.Invalid {
				t.Fatalf("err = %v, want invalid", err)
			}
			if !strings.Contains(e.Message, tt.want) {
				t.Errorf("message %q does not contain %q", e.Message, tt.want)
			}
		})
	}
}

// TestService_SearchDuringLoad checks, under -race, that searches read a
// consistent snapshot while Load and Reload replace it.
func TestService_SearchDuringLoad(t *testing.T) {
	s := mustService(t, mustJSON(t, fixture()))
	ctx := context.Background()
	small := mustJSON(t, fixture()[:4])
	full := mustJSON(t, fixture())
	done := make(chan struct{})
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			for {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				p, err := s.Search(Filter{Search: "wallet", Entries: 2})
				if err != nil || (p.Count != 2 && p.Count != 5) {
					errs <- fmt.Errorf("count %d, err %v", p.Count, err)
					return
				}
			}
		}()
	}
	for i := range 20 {
		raw := full
		if i%2 == 0 {
			raw = small
		}
		if err := s.Load(ctx, raw); err != nil {
			t.Fatal(err)
		}
		if err := s.Reload(ctx); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
