package bundler

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// Timing of the bundling loop.
const (
	// retryInterval: the loop also runs this often without a wake-up, to
	// pick up operations left by a restart and retry ones whose fees were
	// below the base fee.
	retryInterval = time.Second
	// receiptPoll is how often a bundle's receipt is asked for; the dev
	// chains seal within milliseconds of a transaction.
	receiptPoll = 20 * time.Millisecond
	// bundleTimeout: a bundle not mined by then is put back in the queue
	// (its transaction was dropped); a later bundle reuses its nonce.
	bundleTimeout = 60 * time.Second
)

func (n *netState) loop(ctx context.Context) {
	t := time.NewTicker(retryInterval)
	defer t.Stop()
	defer n.leader.release()
	for {
		if _, _, err := n.keyFunds(ctx); err != nil && ctx.Err() == nil {
			n.svc.cfg.Logger.WarnContext(ctx, "bundler: read the bundler key's balance", "network", n.Network, "err", err)
		}
		n.bundleAll(ctx)
		select {
		case <-ctx.Done():
			return
		case <-n.wake:
		case <-t.C:
		}
	}
}

// bundleAll settles bundles left submitted (by a restart), then bundles
// pending operations until none can be.
func (n *netState) bundleAll(ctx context.Context) {
	if !n.leader.lead(ctx) {
		return // another node bundles this network
	}
	log := n.svc.cfg.Logger.With("network", n.Network)
	if err := n.settleSubmitted(ctx); err != nil && ctx.Err() == nil {
		log.WarnContext(ctx, "bundler: settle submitted bundles", "err", err)
		return
	}
	for ctx.Err() == nil {
		did, err := n.bundleOnce(ctx)
		if err != nil {
			if ctx.Err() == nil {
				log.WarnContext(ctx, "bundler: bundle", "err", err)
			}
			return
		}
		if !did {
			return
		}
	}
}

// settleSubmitted looks up the bundles of submitted operations: mined ones
// are recorded, ones gone longer than bundleTimeout are queued again.
func (n *netState) settleSubmitted(ctx context.Context) error {
	st := n.svc.cfg.Store
	recs, err := st.ByStatus(ctx, n.Network, StatusSubmitted, 1000)
	if err != nil || len(recs) == 0 {
		return err
	}
	byTx := map[common.Hash][]*Record{}
	for _, r := range recs {
		byTx[r.TxHash] = append(byTx[r.TxHash], r)
	}
	for tx, ops := range byTx {
		raw, err := n.receipt(ctx, tx)
		if err != nil {
			return err
		}
		if raw == nil {
			if n.svc.cfg.Now().Sub(ops[0].UpdatedAt) > bundleTimeout {
				if err := st.MarkPending(ctx, hashes(ops), n.svc.cfg.Now()); err != nil {
					return err
				}
			}
			continue
		}
		if err := n.settle(ctx, tx, raw, ops); err != nil {
			return err
		}
	}
	return nil
}

func hashes(recs []*Record) []common.Hash {
	out := make([]common.Hash, len(recs))
	for i, r := range recs {
		out[i] = r.Hash
	}
	return out
}

// bundleOnce sends one bundle of pending operations (fees covering the
// base fee; a sender's in nonce order, each only after every live one of
// its nonce key with a lower nonce, so several of a sender's go in one
// bundle) and waits for it. Operations of banned entities, and of
// throttled ones past their blocks, are dropped first (reputation.go).
// Then the bundle is run as it will be sent (checkBundle), which validates
// every operation again: one that would now fail, or breaks ERC-7562's
// rules, is dropped (marked failed with the reason) and the bundle run
// again without it, so the bundler key pays nothing for it. It reports
// whether it sent or dropped anything.
func (n *netState) bundleOnce(ctx context.Context) (bool, error) {
	st := n.svc.cfg.Store
	pending, err := st.ByStatus(ctx, n.Network, StatusPending, n.svc.cfg.MaxBundleOps*4)
	if err != nil || len(pending) == 0 {
		return false, err
	}
	head, err := n.head(ctx)
	if err != nil {
		return false, err
	}
	pending, throttled, dropped, err := n.dropUnwelcome(ctx, pending, head.number)
	if err != nil || len(pending) == 0 {
		return dropped, err
	}
	lives, err := st.LiveNonces(ctx, n.Network)
	if err != nil {
		return dropped, err
	}
	ops := n.pick(pending, lives, head.baseFee, throttled)
	if len(pending) <= len(ops) {
		n.singles = false
	}
	// Validity windows are checked from the later of our clock and the
	// latest block's: the bundle's block is after both.
	at := n.svc.cfg.Now()
	if head.time.After(at) {
		at = head.time
	}
	for len(ops) > 0 {
		drops := n.expiring(ops, at)
		var gas uint64
		var err error
		if len(drops) == 0 {
			gas, drops, err = n.checkBundle(ctx, ops, at)
		}
		var fo *FailedOpError
		if errors.As(err, &fo) && fo.Index >= 0 && fo.Index < len(ops) {
			out, err := n.bundleFailure(ctx, ops, fo, at)
			if err != nil {
				return dropped, err
			}
			drops = map[int]revalidation{fo.Index: out}
		} else if err != nil {
			return dropped, err
		}
		if len(drops) == 0 {
			return true, n.send(ctx, ops, gas, head.baseFee)
		}
		kept := ops[:0:0]
		for i, r := range ops {
			out, drop := drops[i]
			if !drop {
				kept = append(kept, r)
				continue
			}
			if err := n.drop(ctx, r, out); err != nil {
				return dropped, err
			}
		}
		// A dropped operation's later ones by the same sender now fail
		// (AA25, or AA20 when it was to deploy the sender) and are dropped
		// the same way.
		ops, dropped = kept, true
	}
	return dropped, nil
}

// dropUnwelcome drops (marks failed) the pending operations of banned
// entities (GREP-010) and those of throttled entities accepted more than
// THROTTLED_ENTITY_LIVE_BLOCKS blocks before head (GREP-020), and returns
// the others with the throttled entities among them.
func (n *netState) dropUnwelcome(ctx context.Context, pending []*Record, head uint64) (kept []*Record, throttled map[common.Address]bool, dropped bool, err error) {
	var addrs []common.Address
	seen := map[common.Address]bool{}
	for _, r := range pending {
		for _, e := range n.rated(r.Op) {
			if !seen[e.addr] {
				seen[e.addr] = true
				addrs = append(addrs, e.addr)
			}
		}
	}
	reps, err := n.svc.cfg.Store.Reputations(ctx, n.Network, addrs, n.svc.cfg.Now())
	if err != nil {
		return nil, nil, false, err
	}
	throttled = map[common.Address]bool{}
	for _, r := range pending {
		reason := ""
		for _, e := range n.rated(r.Op) {
			switch reps[e.addr].Status() {
			case ReputationBanned:
				reason = fmt.Sprintf("dropped: %s %s is banned by this bundler's ERC-7562 reputation rules", e.kind, e.addr.Hex())
			case ReputationThrottled:
				throttled[e.addr] = true
				if head > r.SeenBlock+throttledEntityLiveBlocks && reason == "" {
					reason = fmt.Sprintf("dropped: %s %s is throttled by this bundler's ERC-7562 reputation rules and the operation was not bundled within %d blocks", e.kind, e.addr.Hex(), throttledEntityLiveBlocks)
				}
			}
		}
		if reason == "" {
			kept = append(kept, r)
			continue
		}
		n.svc.cfg.Logger.InfoContext(ctx, "bundler: operation dropped", "network", n.Network, "userOpHash", r.Hash, "reason", reason)
		if err := n.svc.cfg.Store.MarkFailed(ctx, r.Hash, reason, n.svc.cfg.Now()); err != nil {
			return nil, nil, dropped, err
		}
		dropped = true
	}
	return kept, throttled, dropped, nil
}

// pick chooses a bundle from pending (oldest first): senders in the order
// of their oldest operation, each sender's operations in nonce order, an
// operation only when every live operation (lives) of its sender and
// nonce key with a lower nonce is already in the bundle, within the
// bundle's operation and gas limits (one operation after a reverted
// bundle) and THROTTLED_ENTITY_BUNDLE_COUNT operations of each throttled
// entity.
func (n *netState) pick(pending []*Record, lives []LiveNonce, baseFee *big.Int, throttled map[common.Address]bool) []*Record {
	type senderKey struct {
		sender common.Address
		key    string
	}
	lower := map[senderKey][]LiveNonce{}
	for _, l := range lives {
		k := senderKey{l.Sender, nonceKey(l.Nonce).String()}
		lower[k] = append(lower[k], l)
	}
	bySender := map[common.Address][]*Record{}
	var order []common.Address
	for _, r := range pending {
		if bySender[r.Op.Sender] == nil {
			order = append(order, r.Op.Sender)
		}
		bySender[r.Op.Sender] = append(bySender[r.Op.Sender], r)
	}
	var ops []*Record
	in := map[common.Hash]bool{}
	perThrottled := map[common.Address]int{}
	gas := uint64(bundleOverheadGas)
	full := func() bool { return len(ops) == n.svc.cfg.MaxBundleOps || (n.singles && len(ops) == 1) }
	for _, sender := range order {
		recs := bySender[sender]
		sort.Slice(recs, func(i, j int) bool { return recs[i].Op.Nonce.Cmp(recs[j].Op.Nonce) < 0 })
		for _, r := range recs {
			if full() {
				return ops
			}
			ready := r.Op.MaxFeePerGas.Cmp(baseFee) >= 0
			for _, l := range lower[senderKey{sender, nonceKey(r.Op.Nonce).String()}] {
				if l.Nonce.Cmp(r.Op.Nonce) < 0 && !in[l.Hash] {
					ready = false
				}
			}
			limited := n.rated(r.Op)
			for _, e := range limited {
				if throttled[e.addr] && perThrottled[e.addr] >= throttledEntityBundleCount {
					ready = false
				}
			}
			if !ready {
				break // nor any later one of this sender
			}
			if gas+opGas(r.Op) > n.svc.cfg.MaxBundleGas {
				return ops
			}
			gas += opGas(r.Op)
			in[r.Hash] = true
			ops = append(ops, r)
			for _, e := range limited {
				if throttled[e.addr] {
					perThrottled[e.addr]++
				}
			}
		}
	}
	return ops
}

func (n *netState) handleOpsData(ops []*Record) ([]byte, error) {
	packed := make([]PackedUserOperation, len(ops))
	for i, r := range ops {
		packed[i] = r.Op.Pack()
	}
	return entryPointABI.Pack("handleOps", packed, n.bundler)
}

// bundleOverheadGas is the handleOps transaction's gas beyond its
// operations' limits: the intrinsic cost, the loops, the beneficiary's payment.
const bundleOverheadGas = 100_000

// opGas is the most gas an operation can use: the sum of its limits.
func opGas(op *UserOperation) uint64 {
	return op.VerificationGasLimit + op.CallGasLimit + op.PreVerificationGas + op.PaymasterVerificationGasLimit + op.PaymasterPostOpGasLimit
}

// bundleFees are the bundle transaction's tip and fee cap: the lowest
// maxPriorityFeePerGas and maxFeePerGas of its operations, so every
// operation pays the bundler at least what its gas costs.
func bundleFees(ops []*Record) (tip, feeCap *big.Int) {
	tip, feeCap = ops[0].Op.MaxPriorityFeePerGas, ops[0].Op.MaxFeePerGas
	for _, r := range ops[1:] {
		if r.Op.MaxPriorityFeePerGas.Cmp(tip) < 0 {
			tip = r.Op.MaxPriorityFeePerGas
		}
		if r.Op.MaxFeePerGas.Cmp(feeCap) < 0 {
			feeCap = r.Op.MaxFeePerGas
		}
	}
	return tip, feeCap
}

// send signs and submits handleOps(ops), marks them submitted and waits for
// the receipt. The transaction's fees are bundleFees(ops).
func (n *netState) send(ctx context.Context, ops []*Record, gas uint64, baseFee *big.Int) error {
	st, now := n.svc.cfg.Store, n.svc.cfg.Now
	data, err := n.handleOpsData(ops)
	if err != nil {
		return err
	}
	tip, feeCap := bundleFees(ops)
	var nonce hexutil.Uint64
	if err := n.Node.Call(ctx, &nonce, "eth_getTransactionCount", n.bundler, "pending"); err != nil {
		return err
	}
	chainID := new(big.Int).SetUint64(n.ChainID)
	tx, err := types.SignNewTx(n.BundlerKey, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: uint64(nonce), GasTipCap: tip, GasFeeCap: feeCap,
		Gas: gas, To: &n.EntryPoint, Data: data,
	})
	if err != nil {
		return err
	}
	raw, err := tx.MarshalBinary()
	if err != nil {
		return err
	}
	// Marked first: if latchd stops between the two, the restart finds the
	// bundle's hash and settles it rather than sending the operations twice.
	if err := st.MarkSubmitted(ctx, hashes(ops), tx.Hash(), now()); err != nil {
		return err
	}
	if err := n.Node.Call(ctx, nil, "eth_sendRawTransaction", hexutil.Encode(raw)); err != nil {
		_ = st.MarkPending(context.WithoutCancel(ctx), hashes(ops), now())
		return err
	}
	deadline := time.Now().Add(bundleTimeout)
	for {
		rcpt, err := n.receipt(ctx, tx.Hash())
		if err != nil {
			return err
		}
		if rcpt != nil {
			return n.settle(ctx, tx.Hash(), rcpt, ops)
		}
		if time.Now().After(deadline) {
			return nil // settleSubmitted takes it from here
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(receiptPoll):
		}
	}
}

// receipt returns a transaction's receipt, or nil while it is not mined.
func (n *netState) receipt(ctx context.Context, tx common.Hash) (json.RawMessage, error) {
	var raw json.RawMessage
	if err := n.Node.Call(ctx, &raw, "eth_getTransactionReceipt", tx); err != nil {
		return nil, err
	}
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	return raw, nil
}

// settle records a mined bundle, reading its receipt once, in one
// transaction of the store (Store.recordBundle): each operation with its
// UserOperationEvent is included and counted, for ERC-7562's reputation,
// as an inclusion of each of its rated entities (opsIncluded), and the
// operations the paymaster paid for are settled against their projects'
// budgets; a reverted bundle (or one without an operation's event) puts
// its operations back in the queue, where the next estimate drops
// whichever fails. When the settlements fail, the bundle is recorded
// without them (the watcher settles them from the chain's logs); another
// failure leaves it submitted, to be settled again by the next round
// (settleSubmitted).
func (n *netState) settle(ctx context.Context, tx common.Hash, raw json.RawMessage, ops []*Record) error {
	st, now := n.svc.cfg.Store, n.svc.cfg.Now
	var rcpt struct {
		Status      hexutil.Uint64 `json:"status"`
		BlockHash   common.Hash    `json:"blockHash"`
		BlockNumber hexutil.Uint64 `json:"blockNumber"`
		Logs        []rpcLog       `json:"logs"`
	}
	if err := json.Unmarshal(raw, &rcpt); err != nil {
		return err
	}
	if rcpt.Status != 1 && len(ops) == 1 {
		// Validated in the estimate, reverted on chain: the operation
		// behaves differently on chain than in simulation (ERC-7562's
		// rules exist for this); it is not retried.
		return st.MarkFailed(ctx, ops[0].Hash, "the bundle transaction "+tx.Hex()+" reverted", now())
	}
	b := minedBundle{tx: tx, blockHash: rcpt.BlockHash, block: uint64(rcpt.BlockNumber)}
	if rcpt.Status != 1 {
		n.singles = true // retried one operation per bundle, so the culprit is found
		b.back = hashes(ops)
	} else {
		events := n.opEvents(rcpt.Logs)
		for _, r := range ops {
			if !events[r.Hash] {
				b.back = append(b.back, r.Hash)
				continue
			}
			b.included = append(b.included, r.Hash)
			b.counted = append(b.counted, addrsOf(n.rated(r.Op))...)
		}
		// The sponsored operations' cost (whoever's they are: a bundle of
		// ours holds only operations of our mempool, but settling is by event).
		if n.Paymaster != (common.Address{}) {
			for _, lg := range rcpt.Logs {
				if s, ok := n.sponsoredEvent(lg, tx); ok {
					b.settlements = append(b.settlements, s)
				}
			}
		}
	}
	if len(b.back) > 0 {
		n.svc.cfg.Logger.WarnContext(ctx, "bundler: bundle did not include operations; retrying them", "network", n.Network, "tx", tx, "count", len(b.back))
	}
	err := st.recordBundle(ctx, n.Network, b, now())
	if err != nil && len(b.settlements) > 0 && ctx.Err() == nil {
		// The watcher settles the paymaster's operations from the chain's
		// logs (watchSponsored): a settlement that fails here (a stored
		// amount it cannot read) must not leave the bundle unrecorded, and
		// the loop settling it again before any other bundle.
		n.svc.cfg.Logger.WarnContext(ctx, "bundler: settle sponsored operations", "network", n.Network, "tx", tx, "err", err)
		b.settlements = nil
		err = st.recordBundle(ctx, n.Network, b, now())
	}
	return err
}

// opEvents reports, by userOpHash, the operations a bundle's logs hold a
// well-formed UserOperationEvent of (buildReceipt's test, for all of them
// at once).
func (n *netState) opEvents(logs []rpcLog) map[common.Hash]bool {
	out := map[common.Hash]bool{}
	ev := entryPointABI.Events["UserOperationEvent"].Inputs.NonIndexed()
	for _, lg := range logs {
		if lg.Address != n.EntryPoint || len(lg.Topics) < 4 || lg.Topics[0] != userOpEventID {
			continue
		}
		if _, seen := out[lg.Topics[1]]; seen {
			continue // buildReceipt reads the first
		}
		vals, err := ev.Unpack(lg.Data)
		out[lg.Topics[1]] = err == nil && len(vals) == 4
	}
	return out
}
