package app

import (
	"context"
	"flag"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/account"
	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/decimal"
)

// SponsorConfig is what the paymaster may spend and on what (issue 33):
// budgets in native units, bounds on fees and gas, the approvals' lifetime.
type SponsorConfig struct {
	// DailyBudget and AccountDailyBudget bound each project's (and each
	// account's) sponsored spending per UTC day on a network, in native
	// units ("0.5"); empty: no bound but the project's balance.
	DailyBudget        string
	AccountDailyBudget string
	// NetworkDailyBudgets are "<caip2>=<amount>": all projects together on a network.
	NetworkDailyBudgets []string
	// BaseFeeMultiplier: maxFeePerGas up to this times the base fee plus the priority fee cap.
	BaseFeeMultiplier string
	// MaxPriorityFee, MaxVerificationGas, MaxCallGas and MaxPreVerificationGas
	// are each "<n>" (every network) or "<caip2>=<n>" (one network).
	MaxPriorityFee        []string
	MaxVerificationGas    []string
	MaxCallGas            []string
	MaxPreVerificationGas []string
	// ApprovalTTL is how long an approval stays valid (and holds budget).
	ApprovalTTL time.Duration
	// RequireSession: the default policy (and latchd dev's project) sponsors
	// only operations that come with the visitor's Latch session.
	RequireSession bool
	// AnyBundler signs approvals any bundler may submit, not only latchd's
	// bundler key; their holders can then collect what ERC-4337 pays a
	// bundler from the paymaster's deposit (docs/smart-accounts.md).
	AnyBundler bool
}

// Defaults of the budget flags, in native units.
const (
	defaultSponsorDailyBudget        = "1"
	defaultSponsorAccountDailyBudget = "0.02"
	// devSponsorBalance is what latchd dev tops its project's balance up
	// to on each dev network at every start, so the demo is sponsored.
	devSponsorBalance = "10"
)

// nativeDecimals: every EVM network's coin counts in wei (18 decimals).
const nativeDecimals = 18

// sponsorFlags binds the sponsorship flags and returns their check.
func sponsorFlags(fs *flag.FlagSet, s *SponsorConfig) func() error {
	var networkBudgets, priority, verification, call, preVerification stringList
	fs.StringVar(&s.DailyBudget, "sponsor-daily-budget", defaultSponsorDailyBudget, "what one project's sponsored operations may cost per UTC day on a network, in its native coin (e.g. 0.5; empty = no bound but the project's balance)")
	fs.StringVar(&s.AccountDailyBudget, "sponsor-account-daily-budget", defaultSponsorAccountDailyBudget, "what one account's sponsored operations may cost per UTC day in a project on a network, in its native coin (empty = no bound)")
	fs.Var(&networkBudgets, "sponsor-network-daily-budget", "what all projects' sponsored operations may cost together per UTC day on a network, <caip2>=<amount in its native coin>; repeatable")
	fs.StringVar(&s.BaseFeeMultiplier, "sponsor-base-fee-multiplier", bundler.Multiplier(bundler.DefaultBaseFeeMultiplierPercent), "a sponsored operation's maxFeePerGas may be up to this times the network's current base fee plus the priority fee cap (1 to 10, two decimals)")
	fs.Var(&priority, "sponsor-max-priority-fee", fmt.Sprintf("ceiling of a sponsored operation's maxPriorityFeePerGas in wei (below it, twice the network's eth_maxPriorityFeePerGas), <wei> or <caip2>=<wei>; repeatable (default %s)", bundler.DefaultSponsorMaxPriorityFee))
	fs.Var(&verification, "sponsor-max-verification-gas", fmt.Sprintf("largest verificationGasLimit sponsored, <gas> or <caip2>=<gas>; repeatable (default %d)", bundler.DefaultSponsorMaxVerificationGas))
	fs.Var(&call, "sponsor-max-call-gas", fmt.Sprintf("largest callGasLimit sponsored, <gas> or <caip2>=<gas>; repeatable (default %d; 10%% of what a call leaves unused is paid to whoever bundles it)", bundler.DefaultSponsorMaxCallGas))
	fs.Var(&preVerification, "sponsor-max-pre-verification-gas", fmt.Sprintf("largest preVerificationGas sponsored, <gas> or <caip2>=<gas>; repeatable (default %d)", bundler.DefaultSponsorMaxPreVerificationGas))
	fs.DurationVar(&s.ApprovalTTL, "sponsor-approval-ttl", bundler.DefaultApprovalLifetime, "how long a paymaster approval stays valid, and holds its operation's cost of the budgets if unused (30s to 1h)")
	fs.BoolVar(&s.AnyBundler, "sponsor-any-bundler", false, "sign paymaster approvals that any bundler may submit, not only latchd's bundler key (for third-party bundlers); whoever holds one may then bundle it for a beneficiary of its own and be paid more than its transaction's gas from the paymaster's deposit (ERC-4337's 10% charge on unused gas, per-operation overheads)")
	fs.BoolVar(&s.RequireSession, "sponsor-require-session", false, "with --sponsor-default (and for latchd dev's project): sponsor only operations that come with the visitor's Latch session, from its wallet's smart account")
	return func() error {
		s.NetworkDailyBudgets, s.MaxPriorityFee, s.MaxVerificationGas, s.MaxCallGas, s.MaxPreVerificationGas = networkBudgets, priority, verification, call, preVerification
		_, err := s.parse()
		return err
	}
}

// sponsorSettings is SponsorConfig parsed.
type sponsorSettings struct {
	dailyBudget, accountDailyBudget *big.Int
	networkBudgets                  map[string]*big.Int
	multiplierPercent               uint64
	anyBundler                      bool
	priority                        perNetwork[*big.Int]
	verification, call, preVerif    perNetwork[uint64]
}

// perNetwork is a value for every network and overrides for some.
type perNetwork[T any] struct {
	all T
	set bool
	by  map[string]T
}

func (p perNetwork[T]) get(network string) (T, bool) {
	if v, ok := p.by[network]; ok {
		return v, true
	}
	return p.all, p.set
}

// parsePerNetwork reads "<v>" and "<caip2>=<v>" entries of flag name.
func parsePerNetwork[T any](name string, entries []string, parse func(string) (T, error)) (perNetwork[T], error) {
	p := perNetwork[T]{by: map[string]T{}}
	for _, e := range entries {
		id, v, scoped := strings.Cut(e, "=")
		if !scoped {
			id, v = "", e
		} else if _, err := caip.EVMChainID(id); err != nil {
			return p, fmt.Errorf("--%s %q: %s is not an eip155 network", name, e, id)
		}
		val, err := parse(v)
		if err != nil {
			return p, fmt.Errorf("--%s %q: %v", name, e, err)
		}
		if scoped {
			p.by[id] = val
		} else {
			p.all, p.set = val, true
		}
	}
	return p, nil
}

func parseGas(s string) (uint64, error) {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v == 0 {
		return 0, fmt.Errorf("want a positive amount of gas")
	}
	return v, nil
}

func parseWeiFlag(s string) (*big.Int, error) {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok || v.Sign() <= 0 {
		return nil, fmt.Errorf("want a positive number of wei")
	}
	return v, nil
}

// parseNative reads an amount of a network's coin ("0.5") into wei, exactly.
func parseNative(flagName, s string) (*big.Int, error) {
	v, err := decimal.Parse(decimal.Field{Name: flagName, Label: flagName, Example: "0.5"}, s, nativeDecimals)
	if err != nil {
		return nil, fmt.Errorf("%s", apperr.As(err).Message)
	}
	return v, nil
}

func (s *SponsorConfig) parse() (*sponsorSettings, error) {
	out := &sponsorSettings{networkBudgets: map[string]*big.Int{}, anyBundler: s.AnyBundler}
	var err error
	if s.DailyBudget != "" {
		if out.dailyBudget, err = parseNative("--sponsor-daily-budget", s.DailyBudget); err != nil {
			return nil, err
		}
	}
	if s.AccountDailyBudget != "" {
		if out.accountDailyBudget, err = parseNative("--sponsor-account-daily-budget", s.AccountDailyBudget); err != nil {
			return nil, err
		}
	}
	for _, e := range s.NetworkDailyBudgets {
		id, amount, ok := strings.Cut(e, "=")
		if _, cerr := caip.EVMChainID(id); !ok || cerr != nil {
			return nil, fmt.Errorf("--sponsor-network-daily-budget %q: want <caip2>=<amount> of an eip155 network", e)
		}
		if out.networkBudgets[id], err = parseNative("--sponsor-network-daily-budget", amount); err != nil {
			return nil, err
		}
	}
	// Two decimals: the multiplier as a percentage. An empty one (a
	// Config built without flags) is the default.
	mult := s.BaseFeeMultiplier
	if mult == "" {
		mult = bundler.Multiplier(bundler.DefaultBaseFeeMultiplierPercent)
	}
	percent, err := decimal.Parse(decimal.Field{Name: "--sponsor-base-fee-multiplier", Label: "--sponsor-base-fee-multiplier", Example: "2"}, mult, 2)
	if err != nil || percent.Int64() < 100 || percent.Int64() > 1000 {
		return nil, fmt.Errorf("--sponsor-base-fee-multiplier %q: want 1 to 10 with at most two decimals", s.BaseFeeMultiplier)
	}
	out.multiplierPercent = percent.Uint64()
	if out.priority, err = parsePerNetwork("sponsor-max-priority-fee", s.MaxPriorityFee, parseWeiFlag); err != nil {
		return nil, err
	}
	if out.verification, err = parsePerNetwork("sponsor-max-verification-gas", s.MaxVerificationGas, parseGas); err != nil {
		return nil, err
	}
	if out.call, err = parsePerNetwork("sponsor-max-call-gas", s.MaxCallGas, parseGas); err != nil {
		return nil, err
	}
	if out.preVerif, err = parsePerNetwork("sponsor-max-pre-verification-gas", s.MaxPreVerificationGas, parseGas); err != nil {
		return nil, err
	}
	if s.ApprovalTTL == 0 {
		s.ApprovalTTL = bundler.DefaultApprovalLifetime
	}
	if s.ApprovalTTL < 30*time.Second || s.ApprovalTTL > time.Hour {
		// Under 30 s the bundler would refuse the approval as about to expire.
		return nil, fmt.Errorf("--sponsor-approval-ttl %s: want 30s to 1h", s.ApprovalTTL)
	}
	return out, nil
}

// limits are network's bounds: the flags' values, zero where the bundler's defaults apply.
func (s *sponsorSettings) limits(network, symbol string) bundler.SponsorLimits {
	l := bundler.SponsorLimits{Symbol: symbol, DailyBudget: s.networkBudgets[network]}
	l.MaxPriorityFee, _ = s.priority.get(network)
	l.MaxVerificationGas, _ = s.verification.get(network)
	l.MaxCallGas, _ = s.call.get(network)
	l.MaxPreVerificationGas, _ = s.preVerif.get(network)
	return l
}

// authSessions checks Latch sessions for bundler.Sessions.
type authSessions struct{ svc *auth.Service }

func (a authSessions) SessionUser(ctx context.Context, projectID, accessToken string) (string, error) {
	s, err := a.svc.Authenticate(ctx, projectID, accessToken)
	if apperr.Code(err) == apperr.Unauthorized {
		return "", bundler.ErrNoSession
	}
	if err != nil {
		return "", err
	}
	return s.UserID, nil
}

// sponsorConfig is the bundler's SponsorConfig: sessions from the
// embedded wallet when it is on, prices from the account service.
func (m *Main) sponsorConfig(s *sponsorSettings) bundler.SponsorConfig {
	c := bundler.SponsorConfig{BaseFeeMultiplierPercent: s.multiplierPercent, AnyBundler: s.anyBundler}
	if s.anyBundler {
		m.Logger.Warn("bundler: --sponsor-any-bundler: paymaster approvals may be bundled by anyone, who then collects what ERC-4337 pays a bundler from the paymaster's deposit")
	}
	if m.auth.svc != nil {
		c.Sessions = authSessions{m.auth.svc}
	}
	if m.account.prices != nil {
		c.NativeUSD = func(ctx context.Context, chainID uint64) (float64, bool) {
			return m.account.prices.Price(ctx, chainID, account.Native)
		}
	}
	return c
}

// fundDevProject tops latchd dev's project up to devSponsorBalance on each
// dev network with a paymaster, so the demo's operations are sponsored
// however many earlier runs spent.
func fundDevProject(ctx context.Context, st *bundler.Store, projectID string, nets []bundler.NetworkConfig) error {
	want, _ := parseNative("dev balance", devSponsorBalance)
	for _, n := range nets {
		if n.PaymasterKey == nil {
			continue
		}
		left, err := st.Left(ctx, projectID, n.Network)
		if err != nil {
			return err
		}
		if left.Cmp(want) >= 0 {
			continue
		}
		if err := st.Fund(ctx, projectID, n.Network, new(big.Int).Sub(want, left), "latchd dev start", time.Now()); err != nil {
			return err
		}
	}
	return nil
}
