package onramp

import (
	"context"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/store"
)

// Store keeps orders in latchd's database (SQLite or Postgres; migration 008).
type Store struct {
	db *store.DB
}

// NewStore returns the order store of db.
func NewStore(db *store.DB) *Store { return &Store{db: db} }

const orderColumns = `id, project_id, provider, provider_ref, status, address, network, chain_id, purchase_currency, purchase_amount, payment_currency, payment_amount, payment_method, tx_hash, error, created_at, updated_at`

// Create records a new order.
func (st *Store) Create(ctx context.Context, o *Order) error {
	_, err := st.db.Exec(ctx, `INSERT INTO onramp_orders (`+orderColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		o.ID, o.ProjectID, o.Provider, o.ProviderRef, string(o.Status), o.Address, o.Network, o.ChainID,
		o.PurchaseCurrency, o.PurchaseAmount, o.PaymentCurrency, o.PaymentAmount, o.PaymentMethod,
		o.TxHash, o.Error, o.CreatedAt.UnixMilli(), o.UpdatedAt.UnixMilli())
	return err
}

// Get returns an order of a project. Errors: apperr.NotFound.
func (st *Store) Get(ctx context.Context, projectID, id string) (*Order, error) {
	o, err := scanOrder(st.db.QueryRow(ctx, `SELECT `+orderColumns+` FROM onramp_orders WHERE project_id = ? AND id = ?`, projectID, id))
	if store.IsNoRows(err) {
		return nil, apperr.Fieldf(apperr.NotFound, "id", "No such order")
	}
	return o, err
}

// byID returns an order of any project (the dev checkout page has only the id).
func (st *Store) byID(ctx context.Context, id string) (*Order, error) {
	o, err := scanOrder(st.db.QueryRow(ctx, `SELECT `+orderColumns+` FROM onramp_orders WHERE id = ?`, id))
	if store.IsNoRows(err) {
		return nil, apperr.Fieldf(apperr.NotFound, "id", "No such order")
	}
	return o, err
}

// List returns a project's orders, newest first, at most limit.
func (st *Store) List(ctx context.Context, projectID string, limit int) ([]*Order, error) {
	rows, err := st.db.Query(ctx, `SELECT `+orderColumns+` FROM onramp_orders WHERE project_id = ? ORDER BY created_at DESC, id LIMIT ?`, projectID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []*Order{}
	for rows.Next() {
		o, err := scanOrder(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// Update records what a provider said of an order; empty fields of up
// leave the stored ones. A final order is never changed again.
func (st *Store) Update(ctx context.Context, id string, up OrderUpdate, now time.Time) error {
	set := `status = ?, updated_at = ?`
	args := []any{string(up.Status), now.UnixMilli()}
	for _, f := range []struct{ col, v string }{{"tx_hash", up.TxHash}, {"purchase_amount", up.PurchaseAmount}, {"error", up.Error}} {
		if f.v != "" {
			set += ", " + f.col + " = ?"
			args = append(args, f.v)
		}
	}
	args = append(args, id)
	_, err := st.db.Exec(ctx, `UPDATE onramp_orders SET `+set+` WHERE id = ? AND status NOT IN ('completed', 'failed')`, args...)
	return err
}

// SetProviderRef records the provider's reference of an order.
func (st *Store) SetProviderRef(ctx context.Context, id, ref string) error {
	_, err := st.db.Exec(ctx, `UPDATE onramp_orders SET provider_ref = ? WHERE id = ?`, ref, id)
	return err
}

// claim moves a pending order to processing and reports whether this call
// did: of two concurrent payments of one order, one wins.
func (st *Store) claim(ctx context.Context, id string, now time.Time) (bool, error) {
	res, err := st.db.Exec(ctx, `UPDATE onramp_orders SET status = 'processing', updated_at = ? WHERE id = ? AND status = 'pending'`, now.UnixMilli(), id)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

type scanner interface{ Scan(...any) error }

func scanOrder(row scanner) (*Order, error) {
	var o Order
	var status string
	var created, updated int64
	err := row.Scan(&o.ID, &o.ProjectID, &o.Provider, &o.ProviderRef, &status, &o.Address, &o.Network, &o.ChainID,
		&o.PurchaseCurrency, &o.PurchaseAmount, &o.PaymentCurrency, &o.PaymentAmount, &o.PaymentMethod,
		&o.TxHash, &o.Error, &created, &updated)
	if err != nil {
		return nil, err
	}
	o.Status = Status(status)
	o.CreatedAt = time.UnixMilli(created).UTC()
	o.UpdatedAt = time.UnixMilli(updated).UTC()
	return &o, nil
}
