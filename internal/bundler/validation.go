package bundler

import (
	"context"
	"errors"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/jsonrpc"
)

// bundleValidityMargin: an operation whose validity window ends sooner when
// it is validated again before bundling is dropped, since its bundle could
// be mined after (a mainnet slot).
const bundleValidityMargin = 12 * time.Second

// validate simulates op's validation through the EntryPoint, checks
// ERC-7562's rules on its trace where the node can trace, and checks its
// signatures and validity windows (with validityMargin). It returns the
// simulation, for the mempool record.
func (n *netState) validate(ctx context.Context, op *UserOperation, prior after) (*simulated, *jsonrpc.Error) {
	refuse := n.svc.cfg.Untraced == UntracedRefuse
	if refuse && !n.tracing.try(n.svc.cfg.Now()) {
		return nil, n.untracedError()
	}
	sim, err := n.simulate(ctx, op, prior)
	if err != nil {
		return nil, n.simulationError(ctx, err)
	}
	if refuse && !sim.traced {
		return nil, n.untracedError()
	}
	if sim.violation != nil {
		return nil, sim.violation.rpcError()
	}
	return sim, n.checkValidationData(sim.res, op, n.svc.cfg.Now(), validityMargin)
}

func (n *netState) untracedError() *jsonrpc.Error {
	return rpcError(jsonrpc.CodeUnavailable, "this bundler takes no operations on %s while the network's node cannot trace their validation (debug_traceCall with %s), which ERC-7562's rules are checked with", n.Network, erc7562Tracer)
}

// simulated is the outcome of simulating an operation's validation.
type simulated struct {
	res *validationResult
	// violation is the rule the trace shows broken (nil: none, or not traced).
	violation *violation
	traced    bool
	// static: traced, and nothing it read can change (staticValidation).
	static bool
}

// simulate runs simulateValidation, traced when the node can trace.
func (n *netState) simulate(ctx context.Context, op *UserOperation, prior after) (*simulated, error) {
	now := n.svc.cfg.Now()
	if n.tracing.try(now) {
		top, err := n.sim.trace(ctx, "simulateValidation", op, prior)
		switch {
		case err == nil:
			n.tracing.traced()
			var r validationResult
			if err := top.result("simulateValidation", &r); err != nil {
				return nil, err
			}
			ph := simulationPhases(op, top, n.EntryPoint)
			v, err := checkRules(op, ph, top.Keccak, n.EntryPoint, n.Paymaster, n.stakedFunc(ctx))
			return &simulated{res: &r, violation: v, traced: true, static: staticValidation(op, top, ph, n.EntryPoint)}, err
		case errors.Is(err, errTracingUnsupported):
			n.cannotTrace(ctx, now)
		default:
			return nil, err
		}
	}
	r, err := n.sim.validate(ctx, op, prior)
	if err != nil {
		return nil, err
	}
	return &simulated{res: r}, nil
}

// cannotTrace records the node's refusal to trace, logging it once.
func (n *netState) cannotTrace(ctx context.Context, now time.Time) {
	if n.tracing.refuse(now) {
		n.svc.cfg.Logger.WarnContext(ctx, "bundler: the network's node cannot trace validation (debug_traceCall with "+erc7562Tracer+"); ERC-7562's validation rules are not checked there",
			"network", n.Network, "untraced", string(n.svc.cfg.Untraced), "recheck", traceRecheck)
	}
}

// stakedFunc is isStaked for checkRules.
func (n *netState) stakedFunc(ctx context.Context) func(common.Address) (bool, error) {
	return func(a common.Address) (bool, error) { return n.isStaked(ctx, a) }
}

// isStaked reports whether entity has ERC-7562's stake in the EntryPoint:
// at least MinStake, locked with an unstake delay of at least a day.
func (n *netState) isStaked(ctx context.Context, entity common.Address) (bool, error) {
	stake, delay, staked, err := n.sim.stakeInfo(ctx, entity)
	if err != nil {
		return false, err
	}
	return staked && stake.Cmp(n.svc.cfg.MinStake) >= 0 && delay >= minUnstakeDelay, nil
}

// stakedEntity is isStaked with a failure to read taken as unstaked.
func (n *netState) stakedEntity(ctx context.Context, entity common.Address) bool {
	staked, err := n.isStaked(ctx, entity)
	return err == nil && staked
}

// checkValidationData refuses a bad signature, an aggregator, and a
// validity window that does not hold from at until margin after.
func (n *netState) checkValidationData(res *validationResult, op *UserOperation, at time.Time, margin time.Duration) *jsonrpc.Error {
	end, now := uint64(at.Add(margin).Unix()), uint64(at.Unix())
	acc := parseValidationData(res.AccountValidationData)
	switch {
	case acc.aggregator == sigFailed:
		return rpcError(CodeInvalidSignature, "Invalid UserOperation signature")
	case acc.aggregator != (common.Address{}):
		return rpcError(CodeUnsupportedAgg, "signature aggregator %s is not supported", acc.aggregator.Hex())
	case acc.validUntil != 0 && acc.validUntil < end, acc.validAfter > now:
		return rpcError(CodeOutOfTimeRange, "AA22 expired or not due: the account's validity window does not include the next %s", margin)
	}
	if op.Paymaster != nil {
		pm := parseValidationData(res.PaymasterValidationData)
		switch {
		case pm.aggregator != (common.Address{}):
			return rpcError(CodeInvalidSignature, "Invalid paymaster signature")
		case pm.validUntil != 0 && pm.validUntil < end, pm.validAfter > now:
			return rpcError(CodeOutOfTimeRange, "AA32 paymaster expired or not due: the paymaster's approval has expired or is not valid for the next %s", margin)
		}
	}
	return nil
}

func (n *netState) simulationError(ctx context.Context, err error) *jsonrpc.Error {
	var fo *FailedOpError
	if errors.As(err, &fo) {
		return failedOpError(fo)
	}
	var re *RevertError
	if errors.As(err, &re) {
		return &jsonrpc.Error{Code: CodeSimulateValidation, Message: "the EntryPoint's validation reverted", Data: hexData(re.Data)}
	}
	n.svc.cfg.Logger.WarnContext(ctx, "bundler: simulation failed", "network", n.Network, "err", err)
	return rpcError(jsonrpc.CodeInternal, "The network's node did not answer")
}
