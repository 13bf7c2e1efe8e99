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
)

// Policy is a project's sponsorship policy (pm_getPaymasterData).
type Policy struct {
	Enabled bool
	// AccountDailyCap bounds sponsored operations per account per UTC day; 0: no cap.
	AccountDailyCap int
	// DailyCap bounds the project's sponsored operations per UTC day; 0: no cap.
	DailyCap int
	// DailyBudget bounds what the project's sponsored operations may cost
	// per UTC day on one network, in wei; nil: no bound but its balance
	// (a stored policy without one takes Config.DefaultPolicy's).
	DailyBudget *big.Int
	// AccountDailyBudget bounds the same per account (operation sender).
	AccountDailyBudget *big.Int
	// RequireSession sponsors only operations that come with the
	// visitor's Latch session and its wallet's proof that the sender is
	// that wallet's smart account (session.go): no anonymous sponsorship.
	RequireSession bool
	// AllowedContracts, when not empty, are the only contracts a sponsored
	// operation may call (the targets of execute and executeBatch).
	AllowedContracts []common.Address
}

// Policy returns projectID's stored policy, or ok false when it has none.
// Budgets it does not set are nil.
func (s *Store) Policy(ctx context.Context, projectID string) (p Policy, ok bool, err error) {
	var enabled, session int
	var allowed, budget, accountBudget string
	const q = `SELECT enabled, account_daily_cap, daily_cap, allowed_contracts, daily_budget, account_daily_budget, require_session FROM bundler_sponsor_policies WHERE project_id = ?`
	if err := s.prepare(ctx, q); err != nil {
		return Policy{}, false, err
	}
	st, _ := s.stmts.Load(q)
	err = st.(*sql.Stmt).QueryRowContext(ctx, projectID).Scan(&enabled, &p.AccountDailyCap, &p.DailyCap, &allowed, &budget, &accountBudget, &session)
	if errors.Is(err, sql.ErrNoRows) {
		return Policy{}, false, nil
	}
	if err != nil {
		return Policy{}, false, err
	}
	p.Enabled, p.RequireSession = enabled != 0, session != 0
	for _, a := range strings.Split(allowed, ",") {
		if a != "" {
			p.AllowedContracts = append(p.AllowedContracts, common.HexToAddress(a))
		}
	}
	if p.DailyBudget, err = optionalWei(budget); err != nil {
		return Policy{}, false, err
	}
	if p.AccountDailyBudget, err = optionalWei(accountBudget); err != nil {
		return Policy{}, false, err
	}
	return p, true, nil
}

// SetPolicy stores projectID's policy, replacing any.
func (s *Store) SetPolicy(ctx context.Context, projectID string, p Policy, now time.Time) error {
	if p.AccountDailyCap < 0 || p.DailyCap < 0 {
		return fmt.Errorf("bundler: sponsorship caps must not be negative")
	}
	if (p.DailyBudget != nil && p.DailyBudget.Sign() < 0) || (p.AccountDailyBudget != nil && p.AccountDailyBudget.Sign() < 0) {
		return fmt.Errorf("bundler: sponsorship budgets must not be negative")
	}
	allowed := make([]string, len(p.AllowedContracts))
	for i, a := range p.AllowedContracts {
		allowed[i] = hexLower(a[:])
	}
	_, err := s.db.Exec(ctx, `INSERT INTO bundler_sponsor_policies (project_id, enabled, account_daily_cap, daily_cap, allowed_contracts, daily_budget, account_daily_budget, require_session, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (project_id) DO UPDATE SET enabled = excluded.enabled, account_daily_cap = excluded.account_daily_cap, daily_cap = excluded.daily_cap, allowed_contracts = excluded.allowed_contracts,
		daily_budget = excluded.daily_budget, account_daily_budget = excluded.account_daily_budget, require_session = excluded.require_session, updated_at = excluded.updated_at`,
		projectID, boolInt(p.Enabled), p.AccountDailyCap, p.DailyCap, strings.Join(allowed, ","), weiText(p.DailyBudget), weiText(p.AccountDailyBudget), boolInt(p.RequireSession), now.UnixMilli())
	return err
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// weiText is v as stored: decimal, or the empty string for nil.
func weiText(v *big.Int) string {
	if v == nil {
		return ""
	}
	return v.String()
}

func optionalWei(s string) (*big.Int, error) {
	if s == "" {
		return nil, nil
	}
	return parseWei(s)
}
