package bundler

import (
	"context"
	"math/big"
	"strings"

	"github.com/latchkit/latch/internal/jsonrpc"
	"github.com/latchkit/latch/internal/store"
)

// SponsorConfig configures what the paymaster approves across networks
// (the per-network bounds are NetworkConfig.Sponsor).
type SponsorConfig struct {
	// BaseFeeMultiplierPercent: a sponsored maxFeePerGas may be up to this
	// percentage of the current base fee plus the priority fee cap;
	// default DefaultBaseFeeMultiplierPercent (2×).
	BaseFeeMultiplierPercent uint64
	// AnyBundler signs approvals any bundler may submit, not only this
	// one's key: their holders may then bundle them with a beneficiary of
	// their own and collect what ERC-4337 pays a bundler from the deposit
	// (docs/smart-accounts.md).
	AnyBundler bool
	// Sessions checks the visitor's Latch session for policies with
	// RequireSession; nil: such policies sponsor nothing.
	Sessions Sessions
	// NativeUSD is the USD price of a chain's native coin, recorded for
	// latchd sponsor report; nil or ok false: none.
	NativeUSD func(ctx context.Context, chainID uint64) (usd float64, ok bool)
}

// Left returns what projectID has funded and not spent on network (live
// approvals' reservations not deducted).
func (s *Store) Left(ctx context.Context, projectID, network string) (*big.Int, error) {
	var funded, spent string
	err := s.db.QueryRow(ctx, `SELECT funded, spent FROM sponsor_balances WHERE project_id = ? AND network = ?`, projectID, network).Scan(&funded, &spent)
	if err != nil {
		if store.IsNoRows(err) {
			return new(big.Int), nil
		}
		return nil, err
	}
	f, sp, err := parseWeis(funded, spent)
	if err != nil {
		return nil, err
	}
	return f.Sub(f, sp), nil
}

// budgetError turns a reservation's refusal into the paymaster's answer:
// -32501 for a project without balance, -32504 for a daily cap or budget,
// with the bound in data.
func (n *netState) budgetError(e *BudgetError) *jsonrpc.Error {
	amount := func(v *big.Int) string { return FormatNative(v, n.Sponsor.Symbol) }
	used := func() string { return amount(e.Used) }
	switch e.Bound {
	case BoundBalance:
		if e.Limit.Sign() <= 0 {
			return boundError(e.Bound, e.Limit, e.Asked, "This project has no sponsorship balance left on %s: the operator tops it up with latchd sponsor fund", n.Network)
		}
		return boundError(e.Bound, e.Limit, new(big.Int).Add(e.Used, e.Asked), "This project's sponsorship balance on %s has %s left, %s of it held by approvals not yet used: not enough for this operation's %s",
			n.Network, amount(e.Limit), used(), amount(e.Asked))
	case BoundAccountDailyCap:
		return throttled(e, "This account has reached today's limit of %s sponsored operations", e.Limit)
	case BoundDailyCap:
		return throttled(e, "This project has reached today's limit of %s sponsored operations", e.Limit)
	case BoundAccountDailyBudget:
		return throttled(e, "This account has reached today's sponsorship budget of %s on %s (%s spent or held; this operation may cost %s)", amount(e.Limit), n.Network, used(), amount(e.Asked))
	case BoundDailyBudget:
		return throttled(e, "This project has reached today's sponsorship budget of %s on %s (%s spent or held; this operation may cost %s)", amount(e.Limit), n.Network, used(), amount(e.Asked))
	default: // BoundNetworkDailyBudget
		return throttled(e, "Sponsorship on %s has reached today's budget of %s for all projects (%s spent or held; this operation may cost %s)", n.Network, amount(e.Limit), used(), amount(e.Asked))
	}
}

func throttled(e *BudgetError, format string, args ...any) *jsonrpc.Error {
	err := boundError(e.Bound, e.Limit, new(big.Int).Add(e.Used, e.Asked), format, args...)
	err.Code = CodeThrottled
	return err
}

// FormatNative shows wei in whole units of an 18-decimal coin, exactly:
// 1500000000000000 → "0.0015 ETH".
func FormatNative(wei *big.Int, symbol string) string {
	neg := wei.Sign() < 0
	s := new(big.Int).Abs(wei).String()
	if len(s) <= 18 {
		s = strings.Repeat("0", 19-len(s)) + s
	}
	whole, frac := s[:len(s)-18], strings.TrimRight(s[len(s)-18:], "0")
	out := whole
	if frac != "" {
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	return out + " " + symbol
}
