package bundler

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// The ledger side of sponsorship: top-ups, settlements from the chain,
// and the watcher's cursor and prices (sponsor_store.go reserves).

// addDailyTx adds one included operation of cost to each scope's day.
func (s *Store) addDailyTx(ctx context.Context, tx *sql.Tx, day int64, cost *big.Int, scopes ...string) error {
	cur, err := s.dailyTx(ctx, tx, day, scopes...)
	if err != nil {
		return err
	}
	for scope, c := range cur {
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO sponsor_daily (scope, day, spent, ops) VALUES (?, ?, ?, ?)
			ON CONFLICT (scope, day) DO UPDATE SET spent = excluded.spent, ops = excluded.ops`), scope, day, new(big.Int).Add(c.amount, cost).String(), c.slots+1); err != nil {
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
	return s.db.InTx(ctx, func(tx *sql.Tx) error {
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
	err := s.db.InTx(ctx, func(tx *sql.Tx) error {
		settled = 0
		if err := s.lockNetwork(ctx, tx, network); err != nil {
			return err
		}
		for _, st := range sts {
			ok, err := s.settleTx(ctx, tx, network, st, now)
			if err != nil {
				return err
			}
			if ok {
				settled++
			}
		}
		return nil
	})
	return settled, err
}

// settleTx settles one operation in Settle's transaction; false when it was settled before.
func (s *Store) settleTx(ctx context.Context, tx *sql.Tx, network string, st Settlement, now time.Time) (bool, error) {
	projectID, day := "", dayOf(now)
	err := tx.QueryRowContext(ctx, s.db.Rebind(`SELECT project_id, day FROM sponsor_approvals WHERE id = ?`), hexLower(st.UserOpHash[:])).Scan(&projectID, &day)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, err
	}
	res, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO sponsor_ledger (id, project_id, network, kind, amount, note, created_at) VALUES (?, ?, ?, 'spend', ?, ?, ?) ON CONFLICT (id) DO NOTHING`),
		"spend:"+hexLower(st.UserOpHash[:]), projectID, network, st.ActualGasCost.String(), "tx "+hexLower(st.TxHash[:]), now.UnixMilli())
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return false, nil // settled before
	}
	// The nonce is used: no approval of it can be included any more.
	used, err := s.slotsTx(ctx, tx, network, `sender = ? AND nonce = ?`, hexLower(st.Sender[:]), st.Nonce.String())
	if err != nil {
		return false, err
	}
	if err := s.dropSlotsTx(ctx, tx, network, used); err != nil {
		return false, err
	}
	if err := s.addBalanceTx(ctx, tx, projectID, network, new(big.Int), st.ActualGasCost, now); err != nil {
		return false, err
	}
	scopes := []string{networkScope(network), projectScope(projectID, network)}
	if projectID != "" {
		scopes = append(scopes, accountScope(projectID, network, st.Sender))
	}
	return true, s.addDailyTx(ctx, tx, day, st.ActualGasCost, scopes...)
}

// PruneApprovals deletes the records of approvals that expired before
// cutoff: no operation can use them any more (the ledger keeps spends).
func (s *Store) PruneApprovals(ctx context.Context, cutoff time.Time) error {
	_, err := s.db.Exec(ctx, `DELETE FROM sponsor_approvals WHERE valid_until < ?`, cutoff.UnixMilli())
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
	_, err := s.db.Exec(ctx, `INSERT INTO sponsor_cursors (network, block, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (network) DO UPDATE SET block = excluded.block, updated_at = excluded.updated_at`, network, int64(block), now.UnixMilli())
	return err
}

// SetPrice records the USD price of network's native coin, for Report.
func (s *Store) SetPrice(ctx context.Context, network string, usd float64, now time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO sponsor_prices (network, usd, at) VALUES (?, ?, ?)
		ON CONFLICT (network) DO UPDATE SET usd = excluded.usd, at = excluded.at`, network, fmt.Sprintf("%g", usd), now.UnixMilli())
	return err
}
