package names

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

func TestSkeleton(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		// confusables.txt's ASCII entries that a label can hold.
		{"paypal", "paypa1", true},   // 1 → l
		{"google", "g00gle", true},   // 0 → O, compared case-folded
		{"modern", "rnodern", true},  // m → rn
		{"admin", "adrnin", true},    // m → rn
		{"hello", "he11o", true},     // 1 → l, twice
		{"m0m1", "rnorn1", true},     // all at once
		{"wallet", "vvallet", false}, // w has no entry
		{"doll", "cloll", false},     // d has no entry
		{"sale", "5ale", false},      // 5 has no entry
		{"mini", "minl", false},      // i has no entry (I does, but labels are lower-cased first)
		{"alice", "alicia", false},
	} {
		if got := Skeleton(tt.a) == Skeleton(tt.b); got != tt.same {
			t.Errorf("skeleton(%q)=%q, skeleton(%q)=%q: same %v, want %v", tt.a, Skeleton(tt.a), tt.b, Skeleton(tt.b), got, tt.same)
		}
	}
	// A skeleton is its own skeleton (UTS #39: idempotent).
	for _, l := range []string{"m0m1", "paypal", "rnrn", "0o1l"} {
		if s := Skeleton(l); Skeleton(s) != s {
			t.Errorf("skeleton(skeleton(%q)) = %q, want %q", l, Skeleton(s), s)
		}
	}
}

// Migration 014 computes the skeletons of the names registered before it
// in SQL; they must be Skeleton's.
func TestSkeleton_MigrationSQL(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		for _, dialect := range []string{"sqlite", "postgres"} {
			raw, err := os.ReadFile(filepath.Join("..", "store", "migrations", dialect, "014_names_rules.sql"))
			if err != nil {
				t.Fatal(err)
			}
			expr := "REPLACE(REPLACE(REPLACE(label, '0', 'o'), '1', 'l'), 'm', 'rn')"
			if !strings.Contains(string(raw), "SET skeleton = "+expr) {
				t.Fatalf("%s migration does not compute %s", dialect, expr)
			}
			for _, label := range []string{"m0m1", "paypa1", "g00gle", "hello-world", "rnodern", "1m0"} {
				var got string
				if err := db.QueryRow(context.Background(), "SELECT "+strings.ReplaceAll(expr, "label", "?"), label).Scan(&got); err != nil {
					t.Fatal(err)
				}
				if got != Skeleton(label) {
					t.Errorf("%s: SQL skeleton of %q is %q, Skeleton's %q", dialect, label, got, Skeleton(label))
				}
			}
		}
	})
}

func TestProjectLabels(t *testing.T) {
	for name, want := range map[string][]string{
		"Latch dev":      {"latch-dev", "latchdev"},
		"  Acme Pay!  ":  {"acme-pay", "acmepay"},
		"Uniswap":        {"uniswap"},
		"my--dapp.io":    {"my-dapp-io", "mydappio"},
		"ABC":            nil, // too short to be a name
		"日本":             nil,
		"A B C D":        {"a-b-c-d", "abcd"},
		"xn--punycode":   {"xn-punycode", "xnpunycode"}, // runs of other characters are one hyphen
		"Crème Brûlée 2": {"cr-me-br-l-e-2", "crmebrle2"},
	} {
		got := ProjectLabels(name)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("ProjectLabels(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestReadReservedFile(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) string {
		p := filepath.Join(dir, "reserved.txt")
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	got, err := ReadReservedFile(write("# brands\nAcme\n\n  acme-pay   # ours\nshop.latch.test\n"), testZone)
	if err != nil || strings.Join(got, ",") != "acme,acme-pay,shop" {
		t.Fatalf("%q, %v", got, err)
	}
	for text, want := range map[string]string{
		"good\nab\n":              "reserved.txt:2: \"ab\": A name must be at least 4 characters",
		"shop.example.com\n":      "reserved.txt:1: \"shop.example.com\": \"shop.example.com\" is not a name of the zone latch.test",
		"fine\n\n# x\nno_space\n": "reserved.txt:4",
	} {
		if _, err := ReadReservedFile(write(text), testZone); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
	if _, err := ReadReservedFile(filepath.Join(dir, "missing"), testZone); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestService_Reserved(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		projects := []string{"Acme Pay"}
		svc, clock := MustService(t, db, nil, func(c *Config) {
			c.Reserved = append([]string{"vip-room"}, DefaultReserved...)
			c.ProjectNames = func(context.Context) ([]string, error) { return projects, nil }
		})
		register := func(name string) error {
			s := newSigner(t)
			_, err := svc.Register(ctx, registration(t, s, s.addr, name, nil, clock.t), callerOf(s))
			return err
		}
		t.Run("ErrBuiltIn", func(t *testing.T) {
			wantErr(t, register("admin"), apperr.Conflict, "The name admin.latch.test is reserved")
			wantErr(t, register("Support.latch.test"), apperr.Conflict, "The name support.latch.test is reserved")
			wantErr(t, register("wa11et"), apperr.Conflict, "wa11et.latch.test looks like wallet.latch.test, which is reserved")
		})
		t.Run("ErrConfigured", func(t *testing.T) {
			wantErr(t, register("vip-roorn"), apperr.Conflict, "vip-roorn.latch.test looks like vip-room.latch.test, which is reserved")
			// Reserved look-alikes of each other: each is refused as itself.
			for _, name := range []string{"gold-coin", "go1d-coin"} {
				if _, _, err := svc.Reserve(ctx, name); err != nil {
					t.Fatal(err)
				}
			}
			wantErr(t, register("go1d-coin"), apperr.Conflict, "The name go1d-coin.latch.test is reserved")
			wantErr(t, register("gold-coin"), apperr.Conflict, "The name gold-coin.latch.test is reserved")
			for _, name := range []string{"gold-coin", "go1d-coin"} {
				svc.Release(ctx, name)
			}
		})
		t.Run("ErrProjectName", func(t *testing.T) {
			wantErr(t, register("acme-pay"), apperr.Conflict, "The name acme-pay.latch.test is reserved")
			wantErr(t, register("acmepay"), apperr.Conflict, "The name acmepay.latch.test is reserved")
			// A project created later is reserved at once.
			projects = append(projects, "Zeta Labs")
			wantErr(t, register("zeta-1abs"), apperr.Conflict, "looks like zeta-labs.latch.test")
		})
		t.Run("OperatorReserveAndRelease", func(t *testing.T) {
			if err := register("gold-club"); err != nil {
				t.Fatal(err)
			}
			label, holder, err := svc.Reserve(ctx, "Gold-Club.latch.test")
			if err != nil || label != "gold-club" || holder == "" {
				t.Fatalf("reserve a registered name: %q %q %v", label, holder, err)
			}
			if rec, _ := svc.Lookup(ctx, "gold-club"); rec == nil {
				t.Fatal("reserving took the name from its holder")
			}
			if _, holder, err := svc.Reserve(ctx, "silver-club"); err != nil || holder != "" {
				t.Fatalf("reserve: %q %v", holder, err)
			}
			if _, _, err := svc.Reserve(ctx, "silver-club"); err != nil {
				t.Fatalf("reserve twice: %v", err)
			}
			wantErr(t, register("silver-club"), apperr.Conflict, "The name silver-club.latch.test is reserved")
			wantErr(t, register("si1ver-club"), apperr.Conflict, "si1ver-club.latch.test looks like silver-club.latch.test, which is reserved")
			list, err := svc.ReservedNames(ctx)
			if err != nil || len(list) != 2 || list[0].Label != "gold-club" || list[1].Label != "silver-club" {
				t.Fatalf("reserved names %+v, %v", list, err)
			}
			if _, found, err := svc.Release(ctx, "silver-club"); !found || err != nil {
				t.Fatalf("release: %v %v", found, err)
			}
			if _, found, _ := svc.Release(ctx, "admin"); found {
				t.Fatal("released a built-in name")
			}
			if err := register("si1ver-club"); err != nil {
				t.Fatalf("after release: %v", err)
			}
			_, _, err = svc.Reserve(ctx, "ab")
			wantErr(t, err, apperr.Invalid, "at least 4")
		})
		t.Run("Suggestions", func(t *testing.T) {
			got, err := svc.Suggestions(ctx, "supp0rt")
			if err != nil || len(got) < 2 || got[0] != (Suggestion{Name: "supp0rt.latch.test", Registered: true, Reason: "supp0rt.latch.test looks like support.latch.test, which is reserved"}) {
				t.Fatalf("suggestions %+v, %v", got, err)
			}
			for _, s := range got[1:] {
				if s.Registered || s.Reason != "" {
					t.Fatalf("suggested a blocked name: %+v", got)
				}
			}
		})
	})
}

func TestService_LookAlikes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, clock := MustService(t, db, nil)
		register := func(name string) error {
			s := newSigner(t)
			_, err := svc.Register(ctx, registration(t, s, s.addr, name, nil, clock.t), callerOf(s))
			return err
		}
		for _, tt := range []struct{ first, second string }{
			{"paypal", "paypa1"},         // the look-alike second
			{"b1ockchain", "blockchain"}, // the look-alike first
			{"g00gle", "google"},
			{"arnazon", "amazon"},
			{"homer", "horner"},
		} {
			if err := register(tt.first); err != nil {
				t.Fatalf("%s: %v", tt.first, err)
			}
			wantErr(t, register(tt.second), apperr.Conflict, tt.second+".latch.test looks like "+tt.first+".latch.test, which is already registered")
			if rec, _ := svc.Lookup(ctx, tt.second); rec != nil {
				t.Fatalf("%s was registered", tt.second)
			}
		}
		t.Run("HolderUpdatesItsName", func(t *testing.T) {
			s := newSigner(t)
			if _, err := svc.Register(ctx, registration(t, s, s.addr, "nam1ng", nil, clock.t), callerOf(s)); err != nil {
				t.Fatal(err)
			}
			clock.t = clock.t.Add(time.Minute)
			if _, err := svc.Register(ctx, registration(t, s, s.addr, "nam1ng", map[string]string{"bio": "hi"}, clock.t), callerOf(s)); err != nil {
				t.Fatalf("the holder's update: %v", err)
			}
		})
		t.Run("ConcurrentLookAlikes", func(t *testing.T) {
			// Both pass the check before either is stored: the unique
			// skeleton lets one in.
			a, b := newSigner(t), newSigner(t)
			errs := make(chan error, 2)
			for _, r := range []struct {
				s    signer
				name string
			}{{a, "race1"}, {b, "racel"}} {
				go func() {
					_, err := svc.Register(ctx, registration(t, r.s, r.s.addr, r.name, nil, clock.t), callerOf(r.s))
					errs <- err
				}()
			}
			e1, e2 := <-errs, <-errs
			if (e1 == nil) == (e2 == nil) {
				t.Fatalf("both or neither registered: %v, %v", e1, e2)
			}
		})
	})
}

func TestService_Session(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, clock := MustService(t, db, nil)
		alice, bob := newSigner(t), newSigner(t)
		t.Run("ErrNoSession", func(t *testing.T) {
			_, err := svc.Register(ctx, registration(t, alice, alice.addr, "alice", nil, clock.t), Caller{IP: "192.0.2.1"})
			wantErr(t, err, apperr.Unauthorized, MsgAddressNotFound)
		})
		account := callerOf(alice)
		if _, err := svc.Register(ctx, registration(t, alice, alice.addr, "alice", nil, clock.t), account); err != nil {
			t.Fatal(err)
		}
		t.Run("ErrOtherKey", func(t *testing.T) {
			// The account registered with alice's key: bob's address (a
			// wallet the visitor also holds) is not the account's.
			_, err := svc.Register(ctx, registration(t, bob, bob.addr, "bobby", nil, clock.t), account)
			wantErr(t, err, apperr.Forbidden, MsgAddressNotFound)
			if rec, _ := svc.Lookup(ctx, "bobby"); rec != nil {
				t.Fatal("registered")
			}
		})
		t.Run("ErrNotASmartAccountOfTheKey", func(t *testing.T) {
			// No SmartAccount: an address other than the key's is nobody's account.
			carol := newSigner(t)
			_, err := svc.Register(ctx, registration(t, carol, bob.addr, "bobby", nil, clock.t), callerOf(carol))
			wantErr(t, err, apperr.Unauthorized, "not signed by")
		})
	})
}

func TestService_DailyLimits(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc, clock := MustService(t, db, nil, func(c *Config) { c.IPDaily, c.AccountDaily, c.Reserved = 2, 1, DefaultReserved })
		at := func(s signer, ip string) Caller { c := callerOf(s); c.IP = ip; return c }
		register := func(s signer, name, ip string) error {
			_, err := svc.Register(ctx, registration(t, s, s.addr, name, nil, clock.t), at(s, ip))
			return err
		}
		wantRetry := func(err error, text string, after time.Duration) {
			t.Helper()
			wantErr(t, err, apperr.RateLimited, text)
			var re *RetryError
			if !errors.As(err, &re) || re.RetryAfter != after {
				t.Fatalf("retry after %v, want %v", re, after)
			}
		}
		a, b, c, d := newSigner(t), newSigner(t), newSigner(t), newSigner(t)
		t.Run("RefusalsCostNothing", func(t *testing.T) {
			for range 3 {
				wantErr(t, register(a, "admin", "192.0.2.1"), apperr.Conflict, "reserved")
			}
			if err := register(b, "bobby", "192.0.2.1"); err != nil {
				t.Fatal(err)
			}
			if err := register(c, "bobby", "192.0.2.1"); apperr.Code(err) != apperr.Conflict {
				t.Fatalf("taken: %v", err)
			}
			if err := register(a, "alice", "192.0.2.1"); err != nil {
				t.Fatal(err)
			}
		})
		t.Run("ErrIP", func(t *testing.T) {
			clock.t = clock.t.Add(time.Hour)
			wantRetry(register(c, "carol", "192.0.2.1"), "Your network (IP address) may register 2 names a day; try again in 23 h", 23*time.Hour)
			if err := register(c, "carol", "198.51.100.7"); err != nil {
				t.Fatalf("another IP: %v", err)
			}
		})
		t.Run("ErrIPv6Network", func(t *testing.T) {
			// Addresses of one /64 are one network.
			e, f, g := newSigner(t), newSigner(t), newSigner(t)
			for _, name := range []string{"erin", "fred"} {
				s := map[string]signer{"erin": e, "fred": f}[name]
				if err := register(s, name, "2001:db8:1:2::"+name[:1]); err != nil {
					t.Fatal(err)
				}
			}
			wantErr(t, register(g, "gina", "2001:db8:1:2:ffff::1"), apperr.RateLimited, "Your network (IP address) may register 2 names a day")
			if err := register(g, "gina", "2001:db8:1:3::1"); err != nil {
				t.Fatalf("another /64: %v", err)
			}
		})
		t.Run("WindowEnds", func(t *testing.T) {
			clock.t = clock.t.Add(23 * time.Hour)
			if err := register(d, "dave", "192.0.2.1"); err != nil {
				t.Fatalf("a day later: %v", err)
			}
		})
	})
}

// Migration 014 gives the names registered before it their skeletons; of
// look-alikes already registered, only the oldest keeps one, so the unique
// index can be built and none of them loses its name.
func TestMigration014_Backfill(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		raw, err := os.ReadFile(filepath.Join("..", "store", "migrations", string(db.Dialect), "014_names_rules.sql"))
		if err != nil {
			t.Fatal(err)
		}
		var backfill []string
		for _, stmt := range strings.Split(string(raw), ";") {
			var lines []string
			for _, l := range strings.Split(stmt, "\n") {
				if !strings.HasPrefix(strings.TrimSpace(l), "--") {
					lines = append(lines, l)
				}
			}
			if s := strings.TrimSpace(strings.Join(lines, "\n")); strings.HasPrefix(s, "UPDATE names SET skeleton") {
				backfill = append(backfill, s)
			}
		}
		if len(backfill) != 2 {
			t.Fatalf("want the two backfill statements, found %d", len(backfill))
		}
		// The state before 014: no index, no skeletons.
		if _, err := db.Exec(ctx, `DROP INDEX names_skeleton`); err != nil {
			t.Fatal(err)
		}
		for _, r := range []struct {
			label string
			at    int64
		}{{"paypal", 100}, {"paypa1", 200}, {"alice", 150}, {"g00gle", 300}, {"google", 300}, {"rnodern", 50}, {"modern", 40}} {
			if _, err := db.Exec(ctx, `INSERT INTO names (zone, label, address, coin_type, attributes, registered_at, updated_at) VALUES (?, ?, ?, 60, '{}', ?, ?)`,
				testZone, r.label, lowerHex(newSigner(t).addr), r.at, r.at); err != nil {
				t.Fatal(err)
			}
		}
		for _, s := range backfill {
			if _, err := db.Exec(ctx, s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
		if _, err := db.Exec(ctx, `CREATE UNIQUE INDEX names_skeleton ON names (zone, skeleton)`); err != nil {
			t.Fatalf("the unique index over the backfill: %v", err)
		}
		want := map[string]string{"paypal": "paypal", "paypa1": "", "alice": "alice", "g00gle": "google", "google": "", "modern": "rnodern", "rnodern": ""}
		rows, err := db.Query(ctx, `SELECT label, COALESCE(skeleton, '') FROM names`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			var label, skeleton string
			if err := rows.Scan(&label, &skeleton); err != nil {
				t.Fatal(err)
			}
			if want[label] != skeleton {
				t.Errorf("%s: skeleton %q, want %q", label, skeleton, want[label])
			}
			n++
		}
		if n != len(want) {
			t.Fatalf("%d names, want %d", n, len(want))
		}
	})
}
