package bundler

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/store"
)

// parseWeis reads two stored amounts.
func parseWeis(a, b string) (*big.Int, *big.Int, error) {
	va, err := parseWei(a)
	if err != nil {
		return nil, nil, err
	}
	vb, err := parseWei(b)
	return va, vb, err
}

func parseWei(s string) (*big.Int, error) {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, fmt.Errorf("bundler: stored amount %q is not a number", s)
	}
	return v, nil
}

// dayOf is the start of t's UTC day in Unix milliseconds, the key of the daily budgets.
func dayOf(t time.Time) int64 { return t.UTC().Truncate(24 * time.Hour).UnixMilli() }

// Scopes of sponsor_daily.
func projectScope(projectID, network string) string { return "project:" + projectID + ":" + network }
func accountScope(projectID, network string, sender common.Address) string {
	return "account:" + projectID + ":" + network + ":" + hexLower(sender[:])
}
func networkScope(network string) string { return "network:" + network }

// lockNetwork serialises the budget transactions of a network: a
// reservation's checks and insert must not interleave with another's or a
// settlement's. SQLite's transactions take the write lock at BEGIN
// (_txlock=immediate); Postgres takes an advisory lock on the network.
func (s *Store) lockNetwork(ctx context.Context, tx *sql.Tx, network string) error {
	if s.db.Dialect != store.Postgres {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 17))`, "bundler-sponsor:"+network)
	return err
}

// Statements of the paymaster's hot path, prepared once on the database:
// preparing the SQL again on every call is much of what a short statement
// costs, and pm_getPaymasterData runs a few per approval.
const (
	insertApprovalSQL = `INSERT INTO sponsor_approvals (id, project_id, network, sender, nonce, amount, day, user_id, valid_until, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`
	upsertSlotSQL     = `INSERT INTO sponsor_slots (network, sender, project_id, nonce, amount, valid_until) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (network, sender, project_id, nonce) DO UPDATE SET amount = excluded.amount,
		valid_until = CASE WHEN excluded.valid_until > sponsor_slots.valid_until THEN excluded.valid_until ELSE sponsor_slots.valid_until END`
	upsertHeldSQL = `INSERT INTO sponsor_held (network, project_id, amount, slots) VALUES (?, ?, ?, ?)
		ON CONFLICT (network, project_id) DO UPDATE SET amount = excluded.amount, slots = excluded.slots`
	// reserveCheckSQL reads whether an approval is recorded and whether
	// an account has slots in a project (Reserve without NextNonce), each
	// by its primary key. (Expired slots not yet released count: the
	// caller then reads the nonce, and the transaction releases them.)
	reserveCheckSQL = `SELECT (SELECT COUNT(*) FROM sponsor_approvals WHERE id = ?),
		(SELECT COUNT(*) FROM (SELECT 1 FROM sponsor_slots WHERE network = ? AND sender = ? AND project_id = ? LIMIT 1) AS held)`
	// budgetSQL reads a project's balance and held sum, three daily sums
	// and an account's slots (budgetTx).
	budgetSQL = `SELECT 'balance', '', funded, spent FROM sponsor_balances WHERE project_id = ? AND network = ?
		UNION ALL SELECT 'held', '', amount, CAST(slots AS TEXT) FROM sponsor_held WHERE network = ? AND project_id = ?
		UNION ALL SELECT 'daily', scope, spent, CAST(ops AS TEXT) FROM sponsor_daily WHERE day = ? AND scope IN (?, ?, ?)
		UNION ALL SELECT 'slot', project_id, amount, nonce FROM sponsor_slots WHERE network = ? AND sender = ?`
)

// prepare prepares queries on the database once each. It runs outside a
// transaction: preparing on the database takes a connection, which a
// transaction holding the pool's only one (in-memory SQLite) would wait
// for forever.
func (s *Store) prepare(ctx context.Context, queries ...string) error {
	for _, q := range queries {
		if _, ok := s.stmts.Load(q); ok {
			continue
		}
		st, err := s.db.PrepareContext(ctx, s.db.Rebind(q))
		if err != nil {
			return err
		}
		if _, loaded := s.stmts.LoadOrStore(q, st); loaded {
			st.Close()
		}
	}
	return nil
}

// txStmt is query's prepared statement in tx (prepared on tx's own
// connection when it is not yet), or nil when prepare has not run for it.
func (s *Store) txStmt(ctx context.Context, tx *sql.Tx, query string) *sql.Stmt {
	st, ok := s.stmts.Load(query)
	if !ok {
		return nil
	}
	return tx.StmtContext(ctx, st.(*sql.Stmt))
}

// txExec and txQuery run query in tx, prepared when prepare has run for it.
func (s *Store) txExec(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	if st := s.txStmt(ctx, tx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return tx.ExecContext(ctx, s.db.Rebind(query), args...)
}

func (s *Store) txQuery(ctx context.Context, tx *sql.Tx, query string, args ...any) (*sql.Rows, error) {
	if st := s.txStmt(ctx, tx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return tx.QueryContext(ctx, s.db.Rebind(query), args...)
}

// Reservation is one approval's hold on the budgets: the most the
// operation can cost, from its approval until it is settled or ValidUntil
// passes.
type Reservation struct {
	ID         common.Hash // the approved operation's userOpHash
	ProjectID  string
	Network    string
	Sender     common.Address
	Nonce      *big.Int
	Amount     *big.Int // the operation's prefund: every gas limit at maxFeePerGas
	ValidUntil time.Time
	UserID     string // the Latch session's user, when one came with the request
	// NextNonce is the chain's next nonce of Sender under Nonce's key: the
	// account's slots below it are stale (approvals asked for nonces it
	// has used). Reserve answers ErrNeedNonce when it is nil and the
	// account has slots in the project.
	NextNonce *big.Int
}

// ErrNeedNonce is Reserve's answer when the account has slots and the
// reservation does not say the chain's next nonce.
var ErrNeedNonce = errors.New("bundler: the account has approvals held; its next nonce is needed")

// Budgets are the bounds a reservation must keep besides the project's
// balance: the policy's caps and budgets, and the network's daily budget
// (nil: none).
type Budgets struct {
	Policy
	NetworkDailyBudget *big.Int
}

// Bounds a reservation can cross (BudgetError.Bound).
const (
	BoundBalance            = "balance"
	BoundDailyCap           = "daily_cap"
	BoundAccountDailyCap    = "account_daily_cap"
	BoundDailyBudget        = "daily_budget"
	BoundAccountDailyBudget = "account_daily_budget"
	BoundNetworkDailyBudget = "network_daily_budget"
)

// BudgetError is Reserve's refusal: the bound the reservation would cross,
// its limit, what is already used of it (spent today and reserved, or the
// operations counted) and what the reservation asked for.
type BudgetError struct {
	Bound string
	Limit *big.Int // wei, or operations for the caps
	Used  *big.Int
	Asked *big.Int
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("bundler: sponsorship %s: %s used of %s, %s asked", e.Bound, e.Used, e.Limit, e.Asked)
}

// Reserve records r if the budgets allow it, checking and writing in one
// transaction, and returns a *BudgetError naming the bound it would cross
// otherwise. Approvals of the same project, sender and nonce share a slot
// that holds the largest of their amounts, not their sum (only one of them
// can be included). An account's bounds count only its own slots with the
// same nonce key and a sequence number from the chain's next (NextNonce)
// to below r's, so approvals others ask for the account (which only its
// owner can use) cannot stop its next operation. Reserving the same id
// twice is a no-op. Slots whose approvals have all expired are released
// first.
func (s *Store) Reserve(ctx context.Context, r Reservation, b Budgets, now time.Time) error {
	day := dayOf(now)
	if r.NextNonce == nil {
		// Asked first without the nonce, as Approve does: an account with
		// live slots is answered ErrNeedNonce from a read, without taking
		// the write lock for a transaction that would be rolled back (the
		// transaction checks again).
		var approved, slots int
		if err := s.queryRow(ctx, reserveCheckSQL, hexLower(r.ID[:]), r.Network, hexLower(r.Sender[:]), r.ProjectID).Scan(&approved, &slots); err != nil {
			return err
		}
		switch {
		case approved > 0:
			return nil // this very approval, asked for again
		case slots > 0:
			return ErrNeedNonce
		}
	}
	if err := s.prepare(ctx, insertApprovalSQL, budgetSQL, upsertSlotSQL, upsertHeldSQL); err != nil {
		return err
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.lockNetwork(ctx, tx, r.Network); err != nil {
			return err
		}
		// Recorded first: a refusal below rolls it back.
		res, err := s.txExec(ctx, tx, insertApprovalSQL,
			hexLower(r.ID[:]), r.ProjectID, r.Network, hexLower(r.Sender[:]), r.Nonce.String(), r.Amount.String(), day, r.UserID, r.ValidUntil.UnixMilli(), now.UnixMilli())
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // this very approval, asked for again
		}
		if s.sweepDue(r.Network, now) {
			if err := s.sweepTx(ctx, tx, r.Network, now); err != nil {
				return err
			}
		}
		pScope, nScope, aScope := projectScope(r.ProjectID, r.Network), networkScope(r.Network), accountScope(r.ProjectID, r.Network, r.Sender)
		view, err := s.budgetTx(ctx, tx, r.ProjectID, r.Network, r.Sender, day, []string{pScope, aScope, nScope})
		if err != nil {
			return err
		}
		daily := view.daily
		left := new(big.Int).Sub(view.funded, view.spent)
		if left.Sign() <= 0 {
			return &BudgetError{Bound: BoundBalance, Limit: left, Used: new(big.Int), Asked: r.Amount}
		}
		// The account's slots in the project: r's own (which may hold a
		// larger approval already) and those that come before it.
		held := new(big.Int) // what r's slot holds already
		slotIsNew := true
		accountReserved, accountOps := new(big.Int).Set(r.Amount), int64(1)
		key, seq := nonceKey(r.Nonce), nonceSeq(r.Nonce)
		for _, sl := range view.slots {
			if sl.project != r.ProjectID {
				continue
			}
			if r.NextNonce == nil {
				return ErrNeedNonce
			}
			switch {
			case sl.nonce.Cmp(r.Nonce) == 0:
				held, slotIsNew = sl.amount, false
			case nonceKey(sl.nonce).Cmp(key) == 0 && nonceSeq(sl.nonce).Cmp(seq) < 0 && nonceSeq(sl.nonce).Cmp(nonceSeq(r.NextNonce)) >= 0:
				accountReserved.Add(accountReserved, sl.amount)
				accountOps++
			}
		}
		delta := new(big.Int) // what r adds to what is held
		if r.Amount.Cmp(held) > 0 {
			delta.Sub(r.Amount, held)
		}
		slotAmount := new(big.Int).Add(held, delta)
		projectHeld, projectSlots := view.held.amount, view.held.slots
		if slotIsNew {
			projectSlots++
		}
		if total := new(big.Int).Add(projectHeld, delta); total.Cmp(left) > 0 {
			return &BudgetError{Bound: BoundBalance, Limit: left, Used: new(big.Int).Sub(total, slotAmount), Asked: slotAmount}
		}
		projectSpent, projectIncluded := daily[pScope].amount, daily[pScope].slots
		accountSpent, accountIncluded := daily[aScope].amount, daily[aScope].slots
		networkSpent := daily[nScope].amount
		others := func(spentToday, heldNow *big.Int) *big.Int { // spent today and held, r's slot aside
			v := new(big.Int).Add(spentToday, heldNow)
			return v.Sub(v, held)
		}
		networkHeld := new(big.Int)
		if b.NetworkDailyBudget != nil { // read only when there is one: every project's sum
			if networkHeld, err = s.networkHeldTx(ctx, tx, r.Network); err != nil {
				return err
			}
		}
		checks := []struct {
			bound       string
			limit       *big.Int
			used, asked *big.Int
		}{
			{BoundAccountDailyCap, capLimit(b.AccountDailyCap), big.NewInt(accountIncluded + accountOps - 1), big.NewInt(1)},
			{BoundDailyCap, capLimit(b.DailyCap), big.NewInt(projectIncluded + projectSlots - 1), big.NewInt(1)},
			{BoundAccountDailyBudget, b.AccountDailyBudget, new(big.Int).Add(accountSpent, new(big.Int).Sub(accountReserved, r.Amount)), r.Amount},
			{BoundDailyBudget, b.DailyBudget, others(projectSpent, projectHeld), slotAmount},
			{BoundNetworkDailyBudget, b.NetworkDailyBudget, others(networkSpent, networkHeld), slotAmount},
		}
		for _, c := range checks {
			if c.limit != nil && new(big.Int).Add(c.used, c.asked).Cmp(c.limit) > 0 {
				return &BudgetError{Bound: c.bound, Limit: c.limit, Used: c.used, Asked: c.asked}
			}
		}
		// The slot lives until its last approval expires.
		if _, err := s.txExec(ctx, tx, upsertSlotSQL,
			r.Network, hexLower(r.Sender[:]), r.ProjectID, r.Nonce.String(), slotAmount.String(), r.ValidUntil.UnixMilli()); err != nil {
			return err
		}
		added := int64(0)
		if slotIsNew {
			added = 1
		}
		return s.setHeldTx(ctx, tx, r.Network, r.ProjectID, view.held, delta, added)
	})
}

// capLimit is an operation cap as a limit; nil for 0 (no cap).
func capLimit(n int) *big.Int {
	if n <= 0 {
		return nil
	}
	return big.NewInt(int64(n))
}

// slotRow is a slot as Reserve and Settle read it.
type slotRow struct {
	project string
	sender  common.Address
	nonce   *big.Int
	amount  *big.Int
}

func scanSlots(rows *sql.Rows) ([]slotRow, error) {
	defer rows.Close()
	var out []slotRow
	for rows.Next() {
		var sl slotRow
		var sender, nonce, amount string
		if err := rows.Scan(&sl.project, &sender, &nonce, &amount); err != nil {
			return nil, err
		}
		sl.sender = common.HexToAddress(sender)
		var err error
		if sl.nonce, err = parseWei(nonce); err != nil {
			return nil, err
		}
		if sl.amount, err = parseWei(amount); err != nil {
			return nil, err
		}
		out = append(out, sl)
	}
	return out, rows.Err()
}

// slotsTx reads network's slots that match where (with its args after network).
func (s *Store) slotsTx(ctx context.Context, tx *sql.Tx, network, where string, args ...any) ([]slotRow, error) {
	rows, err := tx.QueryContext(ctx, s.db.Rebind(`SELECT project_id, sender, nonce, amount FROM sponsor_slots WHERE network = ? AND `+where), append([]any{network}, args...)...)
	if err != nil {
		return nil, err
	}
	return scanSlots(rows)
}

// sweepTx releases network's slots whose approvals have all expired.
func (s *Store) sweepTx(ctx context.Context, tx *sql.Tx, network string, now time.Time) error {
	expired, err := s.slotsTx(ctx, tx, network, `valid_until < ?`, now.UnixMilli())
	if err != nil {
		return err
	}
	return s.dropSlotsTx(ctx, tx, network, expired)
}

// dropSlotsTx deletes slots and takes them out of the held sums.
func (s *Store) dropSlotsTx(ctx context.Context, tx *sql.Tx, network string, slots []slotRow) error {
	for _, sl := range slots {
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`DELETE FROM sponsor_slots WHERE network = ? AND sender = ? AND project_id = ? AND nonce = ?`),
			network, hexLower(sl.sender[:]), sl.project, sl.nonce.String()); err != nil {
			return err
		}
		if err := s.addHeldTx(ctx, tx, sl.project, network, new(big.Int).Neg(sl.amount), -1); err != nil {
			return err
		}
	}
	return nil
}

// sum is an amount and a count: held and slots, or spent and operations included.
type sum struct {
	amount *big.Int
	slots  int64
}

// sumsTx reads the sums of scopes (query, with cond and the scopes as the
// rest of its WHERE clause); a scope without a row sums to zero.
func (s *Store) sumsTx(ctx context.Context, tx *sql.Tx, query, cond string, args []any, scopes []string) (map[string]sum, error) {
	out := make(map[string]sum, len(scopes))
	for _, sc := range scopes {
		out[sc] = sum{amount: new(big.Int)}
		args = append(args, sc)
	}
	rows, err := tx.QueryContext(ctx, s.db.Rebind(query+` WHERE `+cond+`scope IN (?`+strings.Repeat(`, ?`, len(scopes)-1)+`)`), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var scope, amount string
		var n int64
		if err := rows.Scan(&scope, &amount, &n); err != nil {
			return nil, err
		}
		v, err := parseWei(amount)
		if err != nil {
			return nil, err
		}
		out[scope] = sum{amount: v, slots: n}
	}
	return out, rows.Err()
}

// dailyTx reads what was spent and included per scope on day.
func (s *Store) dailyTx(ctx context.Context, tx *sql.Tx, day int64, scopes ...string) (map[string]sum, error) {
	return s.sumsTx(ctx, tx, `SELECT scope, spent, ops FROM sponsor_daily`, `day = ? AND `, []any{day}, scopes)
}

// heldTx reads what projectID's live slots hold on network.
func (s *Store) heldTx(ctx context.Context, tx *sql.Tx, network, projectID string) (sum, error) {
	var amount string
	var slots int64
	err := tx.QueryRowContext(ctx, s.db.Rebind(`SELECT amount, slots FROM sponsor_held WHERE network = ? AND project_id = ?`), network, projectID).Scan(&amount, &slots)
	if errors.Is(err, sql.ErrNoRows) {
		return sum{amount: new(big.Int)}, nil
	}
	if err != nil {
		return sum{}, err
	}
	v, err := parseWei(amount)
	return sum{amount: v, slots: slots}, err
}

// setHeldTx writes projectID's held sum on network: cur plus amount and slots.
func (s *Store) setHeldTx(ctx context.Context, tx *sql.Tx, network, projectID string, cur sum, amount *big.Int, slots int64) error {
	_, err := s.txExec(ctx, tx, upsertHeldSQL,
		network, projectID, new(big.Int).Add(cur.amount, amount).String(), cur.slots+slots)
	return err
}

// addHeldTx adds amount and slots to what projectID's live slots hold on network.
func (s *Store) addHeldTx(ctx context.Context, tx *sql.Tx, projectID, network string, amount *big.Int, slots int64) error {
	cur, err := s.heldTx(ctx, tx, network, projectID)
	if err != nil {
		return err
	}
	return s.setHeldTx(ctx, tx, network, projectID, cur, amount, slots)
}

// networkHeldTx is what every project's live slots hold on network.
func (s *Store) networkHeldTx(ctx context.Context, tx *sql.Tx, network string) (*big.Int, error) {
	rows, err := tx.QueryContext(ctx, s.db.Rebind(`SELECT amount FROM sponsor_held WHERE network = ?`), network)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	total := new(big.Int)
	for rows.Next() {
		var amount string
		if err := rows.Scan(&amount); err != nil {
			return nil, err
		}
		v, err := parseWei(amount)
		if err != nil {
			return nil, err
		}
		total.Add(total, v)
	}
	return total, rows.Err()
}

// budgetView is what Reserve weighs: a project's balance on a network,
// what its live slots hold, daily sums, and an account's slots there.
type budgetView struct {
	funded, spent *big.Int
	held          sum
	daily         map[string]sum
	slots         []slotRow
}

// budgetTx reads, in one query (budgetSQL), projectID's balance on
// network, what its live slots hold, the day's sums of the three scopes of
// daily and sender's slots (every project's).
func (s *Store) budgetTx(ctx context.Context, tx *sql.Tx, projectID, network string, sender common.Address, day int64, daily []string) (*budgetView, error) {
	v := &budgetView{funded: new(big.Int), spent: new(big.Int), held: sum{amount: new(big.Int)}, daily: map[string]sum{}}
	args := []any{projectID, network, network, projectID, day}
	for _, sc := range daily {
		args = append(args, sc)
		v.daily[sc] = sum{amount: new(big.Int)}
	}
	args = append(args, network, hexLower(sender[:]))
	rows, err := s.txQuery(ctx, tx, budgetSQL, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var kind, key, a, b string
		if err := rows.Scan(&kind, &key, &a, &b); err != nil {
			return nil, err
		}
		va, vb, err := parseWeis(a, b)
		if err != nil {
			return nil, err
		}
		switch kind {
		case "balance":
			v.funded, v.spent = va, vb
		case "held":
			v.held = sum{amount: va, slots: vb.Int64()}
		case "daily":
			v.daily[key] = sum{amount: va, slots: vb.Int64()}
		default: // slot: project, amount, nonce
			v.slots = append(v.slots, slotRow{project: key, sender: sender, nonce: vb, amount: va})
		}
	}
	return v, rows.Err()
}

// sweepInterval: Reserve releases expired slots at most this often per
// network (by its clock); until then they hold a moment longer.
const sweepInterval = time.Second

// sweepDue reports whether network's expired slots are due to be
// released at now, and if so notes that they are.
func (s *Store) sweepDue(network string, now time.Time) bool {
	s.sweepMu.Lock()
	defer s.sweepMu.Unlock()
	if s.swept == nil {
		s.swept = map[string]time.Time{}
	}
	last, ok := s.swept[network]
	if ok && now.Sub(last) < sweepInterval && !now.Before(last) {
		return false
	}
	s.swept[network] = now
	return true
}

func (s *Store) balanceTx(ctx context.Context, tx *sql.Tx, projectID, network string) (funded, spent *big.Int, err error) {
	var f, sp string
	err = tx.QueryRowContext(ctx, s.db.Rebind(`SELECT funded, spent FROM sponsor_balances WHERE project_id = ? AND network = ?`), projectID, network).Scan(&f, &sp)
	if errors.Is(err, sql.ErrNoRows) {
		return new(big.Int), new(big.Int), nil
	}
	if err != nil {
		return nil, nil, err
	}
	return parseWeis(f, sp)
}
