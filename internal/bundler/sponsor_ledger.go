package bundler

import (
	"cmp"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// The ledger side of sponsorship: top-ups, settlements from the chain,
// and the watcher's cursor and prices (sponsor_store.go reserves).

// addDailyTx adds included operations to each scope's day: sums holds,
// per scope, their cost and how many they are.
func (s *Store) addDailyTx(ctx context.Context, tx *sql.Tx, day int64, sums map[string]sum) error {
	scopes := make([]string, 0, len(sums))
	for sc := range sums {
		scopes = append(scopes, sc)
	}
	slices.Sort(scopes)
	cur, err := s.dailyTx(ctx, tx, day, scopes...)
	if err != nil {
		return err
	}
	for _, scope := range scopes {
		c, add := cur[scope], sums[scope]
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO sponsor_daily (scope, day, spent, ops) VALUES (?, ?, ?, ?)
			ON CONFLICT (scope, day) DO UPDATE SET spent = excluded.spent, ops = excluded.ops`), scope, day, new(big.Int).Add(c.amount, add.amount).String(), c.slots+add.slots); err != nil {
			return err
		}
	}
	return nil
}

// addBalanceTx adds to a project's funded and spent sums on a network.
func (s *Store) addBalanceTx(ctx context.Context, tx *sql.Tx, projectID, network string, funded, spent *big.Int, now time.Time) error {
	f, sp, err := s.balanceTx(ctx, tx, projectID, network)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO sponsor_balances (project_id, network, funded, spent, updated_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (project_id, network) DO UPDATE SET funded = excluded.funded, spent = excluded.spent, updated_at = excluded.updated_at`),
		projectID, network, f.Add(f, funded).String(), sp.Add(sp, spent).String(), now.UnixMilli())
	return err
}

// Fund adds amount (wei, positive) to projectID's sponsorship balance on
// network, with a ledger entry carrying note.
func (s *Store) Fund(ctx context.Context, projectID, network string, amount *big.Int, note string, now time.Time) error {
	if amount == nil || amount.Sign() <= 0 {
		return errors.New("bundler: a top-up must be positive")
	}
	var id [12]byte
	if _, err := rand.Read(id[:]); err != nil {
		return err
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.lockNetwork(ctx, tx, network); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO sponsor_ledger (id, project_id, network, kind, amount, note, created_at) VALUES (?, ?, ?, 'fund', ?, ?, ?)`),
			"fund:"+hex.EncodeToString(id[:]), projectID, network, amount.String(), note, now.UnixMilli()); err != nil {
			return err
		}
		return s.addBalanceTx(ctx, tx, projectID, network, amount, new(big.Int), now)
	})
}

// Settlement is one included sponsored operation, from its UserOperationEvent.
type Settlement struct {
	UserOpHash    common.Hash
	Sender        common.Address
	Nonce         *big.Int
	ActualGasCost *big.Int
	TxHash        common.Hash
}

// Settle records what included operations of network cost, in one
// transaction, each once: a spend in the ledger of the project whose
// approval it used (whether or not that approval has expired since: what
// the chain paid was spent). It ends the reservations of every approval of
// its sender and nonce, which no other operation can use now. An
// operation latchd has no approval of is recorded as spent by no project
// (project ""). It returns how many operations were new.
func (s *Store) Settle(ctx context.Context, network string, sts []Settlement, now time.Time) (int, error) {
	settled := 0
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		settled, err = s.settleTx(ctx, tx, network, sts, now)
		return err
	})
	return settled, err
}

// settleTx is Settle in tx. Each operation gets its ledger entry and its
// slots end one by one; the sums they change (balances, held amounts,
// daily sums) are added up first and written once each.
func (s *Store) settleTx(ctx context.Context, tx *sql.Tx, network string, sts []Settlement, now time.Time) (int, error) {
	if err := s.lockNetwork(ctx, tx, network); err != nil {
		return 0, err
	}
	settled := 0
	spent := map[string]*big.Int{}      // per project
	released := map[string]sum{}        // per project: what its ended slots held
	daily := map[int64]map[string]sum{} // per day and scope: cost and operations
	for _, st := range sts {
		projectID, day := "", dayOf(now)
		err := tx.QueryRowContext(ctx, s.db.Rebind(`SELECT project_id, day FROM sponsor_approvals WHERE id = ?`), hexLower(st.UserOpHash[:])).Scan(&projectID, &day)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return 0, err
		}
		res, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO sponsor_ledger (id, project_id, network, kind, amount, note, created_at) VALUES (?, ?, ?, 'spend', ?, ?, ?) ON CONFLICT (id) DO NOTHING`),
			"spend:"+hexLower(st.UserOpHash[:]), projectID, network, st.ActualGasCost.String(), "tx "+hexLower(st.TxHash[:]), now.UnixMilli())
		if err != nil {
			return 0, err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			continue // settled before
		}
		settled++
		// The nonce is used: no approval of it can be included any more.
		used, err := s.slotsTx(ctx, tx, network, `sender = ? AND nonce = ?`, hexLower(st.Sender[:]), st.Nonce.String())
		if err != nil {
			return 0, err
		}
		for _, sl := range used {
			if _, err := tx.ExecContext(ctx, s.db.Rebind(`DELETE FROM sponsor_slots WHERE network = ? AND sender = ? AND project_id = ? AND nonce = ?`),
				network, hexLower(sl.sender[:]), sl.project, sl.nonce.String()); err != nil {
				return 0, err
			}
			r := released[sl.project]
			if r.amount == nil {
				r.amount = new(big.Int)
			}
			r.amount.Add(r.amount, sl.amount)
			r.slots++
			released[sl.project] = r
		}
		if spent[projectID] == nil {
			spent[projectID] = new(big.Int)
		}
		spent[projectID].Add(spent[projectID], st.ActualGasCost)
		scopes := []string{networkScope(network), projectScope(projectID, network)}
		if projectID != "" {
			scopes = append(scopes, accountScope(projectID, network, st.Sender))
		}
		if daily[day] == nil {
			daily[day] = map[string]sum{}
		}
		for _, sc := range scopes {
			d := daily[day][sc]
			if d.amount == nil {
				d.amount = new(big.Int)
			}
			d.amount.Add(d.amount, st.ActualGasCost)
			d.slots++
			daily[day][sc] = d
		}
	}
	for _, p := range sortedKeys(released) {
		r := released[p]
		if err := s.addHeldTx(ctx, tx, p, network, new(big.Int).Neg(r.amount), -r.slots); err != nil {
			return 0, err
		}
	}
	for _, p := range sortedKeys(spent) {
		if err := s.addBalanceTx(ctx, tx, p, network, new(big.Int), spent[p], now); err != nil {
			return 0, err
		}
	}
	for _, day := range sortedKeys(daily) {
		if err := s.addDailyTx(ctx, tx, day, daily[day]); err != nil {
			return 0, err
		}
	}
	return settled, nil
}

// sortedKeys lists m's keys in order, so a transaction's writes come in
// the same order whatever the map's.
func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// PruneApprovals deletes the records of approvals that expired before
// cutoff: no operation can use them any more (the ledger keeps spends).
func (s *Store) PruneApprovals(ctx context.Context, cutoff time.Time) error {
	_, err := s.exec(ctx, `DELETE FROM sponsor_approvals WHERE valid_until < ?`, cutoff.UnixMilli())
	return err
}

// Cursor returns the last block of network whose sponsored operations are
// settled, ok false before the first.
func (s *Store) Cursor(ctx context.Context, network string) (block uint64, ok bool, err error) {
	var b int64
	err = s.db.QueryRow(ctx, `SELECT block FROM sponsor_cursors WHERE network = ?`, network).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return uint64(b), err == nil, err
}

// SetCursor records that network's blocks up to block are settled.
func (s *Store) SetCursor(ctx context.Context, network string, block uint64, now time.Time) error {
	_, err := s.exec(ctx, `INSERT INTO sponsor_cursors (network, block, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (network) DO UPDATE SET block = excluded.block, updated_at = excluded.updated_at`, network, int64(block), now.UnixMilli())
	return err
}

// SetPrice records the USD price of network's native coin, for Report.
func (s *Store) SetPrice(ctx context.Context, network string, usd float64, now time.Time) error {
	_, err := s.exec(ctx, `INSERT INTO sponsor_prices (network, usd, at) VALUES (?, ?, ?)
		ON CONFLICT (network) DO UPDATE SET usd = excluded.usd, at = excluded.at`, network, fmt.Sprintf("%g", usd), now.UnixMilli())
	return err
}
