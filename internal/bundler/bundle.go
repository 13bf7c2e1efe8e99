package bundler

import (
	"context"
	"encoding/json"
	"errors"
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
// bundle) and waits for it. Operations the EntryPoint refuses (FailedOp
// while estimating the bundle) are marked failed with their reason and the
// bundle is retried without them (a sender's later ones then fail with
// AA25 the same way). It reports whether it sent or dropped anything.
func (n *netState) bundleOnce(ctx context.Context) (bool, error) {
	st, now := n.svc.cfg.Store, n.svc.cfg.Now
	pending, err := st.ByStatus(ctx, n.Network, StatusPending, n.svc.cfg.MaxBundleOps*4)
	if err != nil || len(pending) == 0 {
		return false, err
	}
	baseFee, err := n.baseFee(ctx)
	if err != nil {
		return false, err
	}
	lives, err := st.LiveNonces(ctx, n.Network)
	if err != nil {
		return false, err
	}
	ops := n.pick(pending, lives, baseFee)
	if len(pending) <= len(ops) {
		n.singles = false
	}
	dropped := false
	for len(ops) > 0 {
		gas, err := n.estimateBundle(ctx, ops)
		var fo *FailedOpError
		if errors.As(err, &fo) && fo.Index >= 0 && fo.Index < len(ops) {
			bad := ops[fo.Index]
			n.svc.cfg.Logger.InfoContext(ctx, "bundler: operation dropped", "network", n.Network, "userOpHash", bad.Hash, "reason", fo.Reason)
			if err := st.MarkFailed(ctx, bad.Hash, fo.Error(), now()); err != nil {
				return dropped, err
			}
			// The sender's later operations in the bundle now fail with
			// AA25 in the next estimate and are dropped the same way.
			ops = append(ops[:fo.Index:fo.Index], ops[fo.Index+1:]...)
			dropped = true
			continue
		}
		if err != nil {
			return dropped, err
		}
		return true, n.send(ctx, ops, gas, baseFee)
	}
	return dropped, nil
}

// pick chooses a bundle from pending (oldest first): senders in the order
// of their oldest operation, each sender's operations in nonce order, an
// operation only when every live operation (lives) of its sender and
// nonce key with a lower nonce is already in the bundle, within the
// bundle's operation and gas limits (one operation after a reverted bundle).
func (n *netState) pick(pending []*Record, lives []LiveNonce, baseFee *big.Int) []*Record {
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
			if !ready {
				break // nor any later one of this sender
			}
			if gas+opGas(r.Op) > n.svc.cfg.MaxBundleGas {
				return ops
			}
			gas += opGas(r.Op)
			in[r.Hash] = true
			ops = append(ops, r)
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

// estimateBundle returns the gas limit of handleOps(ops): the sum of the
// operations' gas limits and bundleOverheadGas, which the EntryPoint cannot
// exceed without reverting. One eth_call with that limit from the bundler
// checks the bundle; a FailedOp comes back as *FailedOpError. (A single call,
// not eth_estimateGas, whose search runs the bundle some twenty times.)
func (n *netState) estimateBundle(ctx context.Context, ops []*Record) (uint64, error) {
	data, err := n.handleOpsData(ops)
	if err != nil {
		return 0, err
	}
	gas := uint64(bundleOverheadGas)
	for _, r := range ops {
		gas += opGas(r.Op)
	}
	var out hexutil.Bytes
	err = n.Node.Call(ctx, &out, "eth_call", map[string]any{"from": n.bundler, "to": n.EntryPoint, "data": hexutil.Bytes(data), "gas": hexutil.Uint64(gas)}, "latest")
	if err != nil {
		return 0, decodeRevert(err)
	}
	return gas, nil
}

// send signs and submits handleOps(ops), marks them submitted and waits for
// the receipt. The transaction's tip is the lowest maxPriorityFeePerGas of
// the bundle and its fee cap the lowest maxFeePerGas, so every operation
// pays the bundler at least what its gas costs.
func (n *netState) send(ctx context.Context, ops []*Record, gas uint64, baseFee *big.Int) error {
	st, now := n.svc.cfg.Store, n.svc.cfg.Now
	data, err := n.handleOpsData(ops)
	if err != nil {
		return err
	}
	tip, feeCap := ops[0].Op.MaxPriorityFeePerGas, ops[0].Op.MaxFeePerGas
	for _, r := range ops[1:] {
		if r.Op.MaxPriorityFeePerGas.Cmp(tip) < 0 {
			tip = r.Op.MaxPriorityFeePerGas
		}
		if r.Op.MaxFeePerGas.Cmp(feeCap) < 0 {
			feeCap = r.Op.MaxFeePerGas
		}
	}
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

// settle records a mined bundle: each operation with its UserOperationEvent
// is included; a reverted bundle (or one without an operation's event) puts
// its operations back in the queue, where the next estimate drops whichever
// fails.
func (n *netState) settle(ctx context.Context, tx common.Hash, raw json.RawMessage, ops []*Record) error {
	st, now := n.svc.cfg.Store, n.svc.cfg.Now
	var head struct {
		Status      hexutil.Uint64 `json:"status"`
		BlockHash   common.Hash    `json:"blockHash"`
		BlockNumber hexutil.Uint64 `json:"blockNumber"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return err
	}
	if head.Status != 1 && len(ops) == 1 {
		// Validated in the estimate, reverted on chain: the operation
		// behaves differently on chain than in simulation (ERC-7562's
		// rules exist for this); it is not retried.
		return st.MarkFailed(ctx, ops[0].Hash, "the bundle transaction "+tx.Hex()+" reverted", now())
	}
	if head.Status != 1 {
		n.singles = true // retried one operation per bundle, so the culprit is found
	} else {
		defer n.settleReceipt(ctx, tx, raw) // the sponsored operations' cost, once they are marked included
	}
	var back []common.Hash
	for _, r := range ops {
		if head.Status == 1 {
			if _, err := buildReceipt(raw, n.EntryPoint, r.Hash); err == nil {
				if err := st.MarkIncluded(ctx, r.Hash, tx, head.BlockHash, uint64(head.BlockNumber), now()); err != nil {
					return err
				}
				continue
			}
		}
		back = append(back, r.Hash)
	}
	if len(back) > 0 {
		n.svc.cfg.Logger.WarnContext(ctx, "bundler: bundle did not include operations; retrying them", "network", n.Network, "tx", tx, "count", len(back))
		return st.MarkPending(ctx, back, now())
	}
	return nil
}
