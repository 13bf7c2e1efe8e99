package bundler

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// The second validation, just before bundling (ERC-7562: "a bundler
// should also perform a full validation of the entire bundle before
// submission"): the bundle is run as it will be sent, traced when one of
// its operations' validation read state that can change, and an operation
// that would now fail, or breaks a rule, is dropped before the bundler's
// key pays for it.

// revalidation is the outcome of validating a mempool operation again
// before bundling it.
type revalidation struct {
	// reason is why the operation is dropped; "" keeps it.
	reason string
	// culprit broke a rule it passed when the operation was accepted
	// (GREP-040's penalty); nil: none, or an entity not rated.
	culprit *entityRef
	// spared is the paymaster whose opsSeen the failure of its operation's
	// account or factory takes back (EREP-015); nil: none.
	spared *entityRef
}

// revalidate validates op again, alone, as it would now be bundled (after
// prior), its validity window checked from at. An error is the node's, not
// the operation's.
func (n *netState) revalidate(ctx context.Context, op *UserOperation, prior after, at time.Time) (revalidation, error) {
	sim, err := n.simulate(ctx, op, prior)
	var fo *FailedOpError
	var re *RevertError
	switch {
	case errors.As(err, &fo):
		out := revalidation{reason: fo.Error()}
		if !isPaymasterReason(fo.Reason) {
			out.spared = n.ratedPaymaster(op)
		}
		return out, nil
	case errors.As(err, &re):
		return revalidation{reason: fmt.Sprintf("the EntryPoint's validation reverted (%s)", hexutil.Encode(re.Data))}, nil
	case err != nil:
		return revalidation{}, err
	case sim.violation != nil:
		return n.violated(ctx, op, sim.violation), nil
	}
	if rerr := n.checkValidationData(sim.res, op, at, bundleValidityMargin); rerr != nil {
		return revalidation{reason: rerr.Message}, nil
	}
	return revalidation{}, nil
}

// violated is the outcome of an operation breaking a rule when validated
// again (having passed them when accepted): dropped, and the entity that
// broke it penalised (ERC-7562 asks to degrade it), its paymaster spared
// when the account or factory broke it (EREP-015).
func (n *netState) violated(ctx context.Context, op *UserOperation, v *violation) revalidation {
	out := revalidation{reason: v.Error(), culprit: n.blame(ctx, op, "", v.Entity)}
	if v.Entity != entityPaymaster {
		out.spared = n.ratedPaymaster(op)
	}
	return out
}

// ratedPaymaster is op's paymaster when the bundler rates it.
func (n *netState) ratedPaymaster(op *UserOperation) *entityRef {
	for _, e := range n.rated(op) {
		if e.kind == kindPaymaster {
			return &e
		}
	}
	return nil
}

// expiring returns the operations whose validity window, as their
// validation returned it when accepted, does not hold from at until
// bundleValidityMargin after: their bundle could be mined after it ends.
func (n *netState) expiring(ops []*Record, at time.Time) map[int]revalidation {
	drops := map[int]revalidation{}
	for i, r := range ops {
		if r.validation == nil {
			continue // accepted before this was recorded: the bundle's run checks it
		}
		if rerr := n.checkValidationData(r.validation, r.Op, at, bundleValidityMargin); rerr != nil {
			drops[i] = revalidation{reason: rerr.Message}
		}
	}
	return drops
}

// bundleFailure decides about ops[fo.Index], which the EntryPoint refused
// in the bundle: validated alone (after the sender's earlier operations in
// the bundle), an operation that fails there too is dropped for that
// reason (its state changed since it was accepted); one that passes alone
// failed because of the bundle, and a paymaster or staked entity the
// reason names is answerable for it (GREP-040; an unstaked sender is not:
// a wallet whose pipelined operations cannot all pay is not an attacker).
func (n *netState) bundleFailure(ctx context.Context, ops []*Record, fo *FailedOpError, at time.Time) (revalidation, error) {
	bad := ops[fo.Index].Op
	out, err := n.revalidate(ctx, bad, priorIn(ops, fo.Index), at)
	if err != nil || out.reason != "" {
		return out, err
	}
	out = revalidation{reason: fo.Error()}
	if e := n.blame(ctx, bad, fo.Reason, ""); e != nil && (e.kind == kindPaymaster || n.stakedEntity(ctx, e.addr)) {
		out.culprit = e
	}
	return out, nil
}

// drop marks r failed with out's reason, after changing the reputation of
// the entities out names (so whoever sees the operation failed sees that).
func (n *netState) drop(ctx context.Context, r *Record, out revalidation) error {
	n.svc.cfg.Logger.InfoContext(ctx, "bundler: operation dropped", "network", n.Network, "userOpHash", r.Hash, "reason", out.reason)
	if out.culprit != nil {
		n.reputationChanged(ctx, []common.Address{out.culprit.addr}, reputationChange{penalty: true})
	}
	if out.spared != nil {
		n.reputationChanged(ctx, []common.Address{out.spared.addr}, reputationChange{seen: -1})
	}
	return n.svc.cfg.Store.MarkFailed(ctx, r.Hash, out.reason, n.svc.cfg.Now())
}

// priorIn is what validating ops[i] alone must take into account of the
// operations before it in the bundle: its sender's earlier nonces of its
// key, and their deployment of the sender.
func priorIn(ops []*Record, i int) after {
	op := ops[i].Op
	var prior after
	for _, r := range ops[:i] {
		if r.Op.Sender != op.Sender {
			continue
		}
		if nonceKey(r.Op.Nonce).Cmp(nonceKey(op.Nonce)) == 0 {
			prior.NextSeq = nonceSeq(op.Nonce)
		}
		if r.Op.Factory != nil {
			prior.DeployCode = r.Op.InitCode()
		}
	}
	return prior
}

// checkBundle runs handleOps(ops) as send will send it (from the bundler,
// with its gas limit, the sum of the operations' limits and
// bundleOverheadGas, which the EntryPoint cannot exceed without reverting,
// and its fees, so tx.gasprice is what the chain will see): this is each
// operation's validation again, just before bundling. A FailedOp comes
// back as *FailedOpError. When an operation's validation read state that
// may have changed since it was accepted (not static), and the node can
// trace, the run is traced and each operation's validation checked
// against ERC-7562's rules and its validity window (bundleValidityMargin
// from at); the operations to drop come back in drops, by index. A trace
// costs some ten times the eth_call (the whole bundle's frames come back),
// which operations like the embedded wallet's, sponsored, do without.
// (One call, not eth_estimateGas, whose search runs the bundle some twenty
// times.)
func (n *netState) checkBundle(ctx context.Context, ops []*Record, at time.Time) (gas uint64, drops map[int]revalidation, err error) {
	data, err := n.handleOpsData(ops)
	if err != nil {
		return 0, nil, err
	}
	gas = uint64(bundleOverheadGas)
	for _, r := range ops {
		gas += opGas(r.Op)
	}
	tip, feeCap := bundleFees(ops)
	args := map[string]any{
		"from": n.bundler, "to": n.EntryPoint, "data": hexutil.Bytes(data), "gas": hexutil.Uint64(gas),
		"maxFeePerGas": (*hexutil.Big)(feeCap), "maxPriorityFeePerGas": (*hexutil.Big)(tip),
	}
	static := true
	for _, r := range ops {
		static = static && r.static
	}
	if now := n.svc.cfg.Now(); !static && n.tracing.try(now) {
		var top frame
		err := n.Node.Call(ctx, &top, "debug_traceCall", args, "latest", map[string]any{"tracer": erc7562Tracer, "tracerConfig": tracerConfig})
		switch {
		case err == nil:
			n.tracing.traced()
			if top.Error != "" {
				return 0, nil, revertError(top.Output, top.Error)
			}
			drops, err := n.bundleFindings(ctx, ops, &top, at)
			return gas, drops, err
		case cannotTrace(err):
			n.cannotTrace(ctx, now)
		default:
			return 0, nil, err
		}
	}
	var out hexutil.Bytes
	if err := n.Node.Call(ctx, &out, "eth_call", args, "latest"); err != nil {
		return 0, nil, decodeRevert(err)
	}
	return gas, nil, nil
}

// bundleFindings checks each operation's validation in a traced bundle:
// one that breaks a rule it passed when it was accepted is dropped and its
// entity penalised (ERC-7562 asks to degrade it; a paymaster is spared its
// account's or factory's breach, EREP-015); one whose validity window ends
// within bundleValidityMargin is dropped.
func (n *netState) bundleFindings(ctx context.Context, ops []*Record, top *frame, at time.Time) (map[int]revalidation, error) {
	all, err := bundlePhases(opsOf(ops), top, n.EntryPoint)
	if err != nil {
		return nil, err
	}
	drops := map[int]revalidation{}
	for i, r := range ops {
		v, err := checkRules(r.Op, all[i], top.Keccak, n.EntryPoint, n.Paymaster, n.stakedFunc(ctx))
		if err != nil {
			return nil, err
		}
		if v != nil {
			drops[i] = n.violated(ctx, r.Op, v)
			continue
		}
		if rerr := n.checkValidationData(all[i].validationData(), r.Op, at, bundleValidityMargin); rerr != nil {
			drops[i] = revalidation{reason: rerr.Message}
		}
	}
	return drops, nil
}

func opsOf(recs []*Record) []*UserOperation {
	out := make([]*UserOperation, len(recs))
	for i, r := range recs {
		out[i] = r.Op
	}
	return out
}
