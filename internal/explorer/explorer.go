// Package explorer serves the wallet registry the AppKit modal lists
// (GET /getWallets, api-shapes §1.1) and the wallet, asset, currency and token
// images it shows (§1.2).
//
// The registry lives in the wallets table so that every latchd node sharing a
// database serves the same list. Searches never touch the database: Load and
// Reload build an immutable in-memory snapshot, with each wallet's response
// JSON encoded once, and swap it in atomically.
package explorer

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/store"
)

// Service owns the wallet registry and the image store.
type Service struct {
	db   *store.DB
	snap atomic.Pointer[snapshot]
}

// New returns a Service over db with an empty registry; call Load or Reload
// before serving.
func New(db *store.DB) *Service {
	s := &Service{db: db}
	s.snap.Store(&snapshot{byID: map[string]*entry{}})
	return s
}

// Load validates raw (the wallets.json format, see data/SOURCES.md) and makes
// it the registry: in one transaction it upserts every wallet (position = its
// index in the file) and deletes wallets the file no longer lists, then it
// refreshes the in-memory snapshot. Invalid input returns an *apperr.Error
// (code invalid) naming the entry, and changes nothing. Loading the same file
// twice leaves the table unchanged, updated_at included.
func (s *Service) Load(ctx context.Context, raw []byte) error {
	recs, err := parseRegistry(raw)
	if err != nil {
		return err
	}
	now := s.db.Now().Unix()
	upsert := s.db.Rebind(`INSERT INTO wallets (id, slug, position, data, updated_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET slug = excluded.slug, position = excluded.position, data = excluded.data, updated_at = excluded.updated_at
		WHERE wallets.slug <> excluded.slug OR wallets.position <> excluded.position OR wallets.data <> excluded.data`)
	err = s.db.InTx(ctx, func(tx *sql.Tx) error {
		keep := make(map[string]bool, len(recs))
		for _, r := range recs {
			keep[r.w.ID] = true
		}
		// Delete first: a slug that moved to a new id must be free before the insert.
		stale, err := staleIDs(ctx, tx, keep)
		if err != nil {
			return err
		}
		del := s.db.Rebind(`DELETE FROM wallets WHERE id = ?`)
		for _, id := range stale {
			if _, err := tx.ExecContext(ctx, del, id); err != nil {
				return fmt.Errorf("delete wallet %s: %w", id, err)
			}
		}
		for i, r := range recs {
			if _, err := tx.ExecContext(ctx, upsert, r.w.ID, r.w.Slug, i, string(r.raw), now); err != nil {
				return fmt.Errorf("store wallet %q: %w", r.w.Slug, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("load wallets: %w", err)
	}
	snap, err := newSnapshot(recs)
	if err != nil {
		return err
	}
	s.snap.Store(snap)
	return nil
}

func staleIDs(ctx context.Context, tx *sql.Tx, keep map[string]bool) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id FROM wallets`)
	if err != nil {
		return nil, fmt.Errorf("list wallets: %w", err)
	}
	defer rows.Close()
	var stale []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		if !keep[id] {
			stale = append(stale, id)
		}
	}
	return stale, rows.Err()
}

// Reload rebuilds the snapshot from the wallets table, so a node picks up a
// registry another node loaded. On error the current snapshot stays in use.
func (s *Service) Reload(ctx context.Context) error {
	rows, err := s.db.Query(ctx, `SELECT data FROM wallets ORDER BY position, id`)
	if err != nil {
		return fmt.Errorf("read wallets: %w", err)
	}
	defer rows.Close()
	var recs []record
	for rows.Next() {
		var data string
		if err := rows.Scan(&data); err != nil {
			return fmt.Errorf("read wallets: %w", err)
		}
		w, err := parseWallet([]byte(data))
		if err != nil {
			return fmt.Errorf("stored wallet %q: %w", w.Slug, err)
		}
		recs = append(recs, record{w: w, raw: []byte(data)})
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read wallets: %w", err)
	}
	snap, err := newSnapshot(recs)
	if err != nil {
		return err
	}
	s.snap.Store(snap)
	return nil
}

// Len returns the number of wallets in the current snapshot.
func (s *Service) Len() int { return len(s.snap.Load().sorted) }

// Wallet returns the wallet with the given id from the current snapshot.
func (s *Service) Wallet(id string) (*Wallet, bool) {
	e, ok := s.snap.Load().byID[id]
	if !ok {
		return nil, false
	}
	return e.w, true
}

// snapshot is an immutable view of the registry; searches read it without locks.
type snapshot struct {
	sorted []*entry // by order (missing last), then name, then position
	byID   map[string]*entry
}

// entry is a wallet with everything a search needs precomputed.
type entry struct {
	w         *Wallet
	pos       int
	json      []byte // the wcWallet encoding, written verbatim into responses
	name      string // lower case
	slug      string
	rdns      string // lower case
	chains    map[string]bool
	evm       bool // lists at least one eip155 chain
	certified bool
	ios       bool
	android   bool
	browser   bool
	desktop   bool
}

func newSnapshot(recs []record) (*snapshot, error) {
	s := &snapshot{sorted: make([]*entry, 0, len(recs)), byID: make(map[string]*entry, len(recs))}
	for i, r := range recs {
		e, err := newEntry(r.w, i)
		if err != nil {
			return nil, err
		}
		s.sorted = append(s.sorted, e)
		s.byID[e.w.ID] = e
	}
	// Sorting once here lets a search keep this order with a stable partition.
	slices.SortStableFunc(s.sorted, func(a, b *entry) int {
		if c := cmp.Compare(orderKey(a.w), orderKey(b.w)); c != 0 {
			return c
		}
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		return cmp.Compare(a.pos, b.pos)
	})
	return s, nil
}

// orderKey ranks wallets without an order after every ranked one.
func orderKey(w *Wallet) int {
	if w.Order == nil {
		return int(^uint(0) >> 1)
	}
	return *w.Order
}

func newEntry(w *Wallet, pos int) (*entry, error) {
	body, err := json.Marshal(wcWallet{
		ID:            w.ID,
		Name:          w.Name,
		BadgeType:     w.BadgeType,
		Description:   w.Description,
		Chains:        w.Chains,
		Homepage:      w.Homepage,
		ImageID:       w.ID, // images are served by wallet id
		ImageURL:      w.ImageURL,
		Order:         w.Order,
		LinkMode:      w.LinkMode,
		MobileLink:    w.MobileLink,
		DesktopLink:   w.DesktopLink,
		WebappLink:    w.WebappLink,
		AppStore:      w.AppStore,
		PlayStore:     w.PlayStore,
		ChromeStore:   w.ChromeStore,
		RDNS:          w.RDNS,
		Injected:      w.Injected,
		DisplayIndex:  pos,
		SupportsWC:    w.SupportsWC,
		SupportsWCPay: w.SupportsWCPay,
	})
	if err != nil {
		return nil, fmt.Errorf("encode wallet %q: %w", w.Slug, err)
	}
	e := &entry{
		w:         w,
		pos:       pos,
		json:      body,
		name:      strings.ToLower(w.Name),
		slug:      w.Slug,
		rdns:      strings.ToLower(deref(w.RDNS)),
		chains:    make(map[string]bool, len(w.Chains)),
		certified: w.BadgeType == BadgeCertified,
	}
	for _, c := range w.Chains {
		e.chains[c] = true
		if id, err := caip.ParseChainID(c); err == nil && id.Namespace == caip.EIP155 {
			e.evm = true
		}
	}
	// A phone can open a wallet through its deep link once the app is
	// installed from the platform's store, or through its web app in the
	// browser; the web app needs no store.
	e.ios = set(w.WebappLink) || set(w.MobileLink) && set(w.AppStore)
	e.android = set(w.WebappLink) || set(w.MobileLink) && set(w.PlayStore)
	e.browser = set(w.ChromeStore) || len(w.Injected) > 0
	e.desktop = set(w.DesktopLink)
	return e, nil
}

func set(p *string) bool { return p != nil && *p != "" }

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
