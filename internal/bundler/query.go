package bundler

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/latchkit/latch/internal/jsonrpc"
)

// GasEstimate is eth_estimateUserOperationGas's answer.
type GasEstimate struct {
	PreVerificationGas            hexutil.Uint64  `json:"preVerificationGas"`
	VerificationGasLimit          hexutil.Uint64  `json:"verificationGasLimit"`
	CallGasLimit                  hexutil.Uint64  `json:"callGasLimit"`
	PaymasterVerificationGasLimit *hexutil.Uint64 `json:"paymasterVerificationGasLimit,omitempty"`
	PaymasterPostOpGasLimit       *hexutil.Uint64 `json:"paymasterPostOpGasLimit,omitempty"`
}

// Gas limits the estimate simulates with: the simulation measures what is
// used, these only have to be enough.
const (
	estimateVerificationGas = 10_000_000
	estimateCallGas         = 10_000_000
	estimatePaymasterGas    = 2_000_000
	// Paymaster limits for LatchVerifyingPaymaster, whose validation
	// (one ecrecover) and postOp (one event) are small and fixed.
	paymasterVerificationGas = 100_000
	paymasterPostOpGas       = 50_000
)

// EstimateUserOperationGas simulates op (signature and gas fields may be
// missing) with fees of zero, so no prefund is needed, and returns gas
// limits with margins: 20% and 20,000 over what validation used, and
// 64/63 of the call's use plus 10% and 10,000 (the EntryPoint passes on
// at most 63/64 of its gas). A reverting call is answered -32521 with the
// revert data. An operation whose nonce follows the sender's pending ones
// is simulated as if they had been included.
func (s *Service) EstimateUserOperationGas(ctx context.Context, network string, op *UserOperation, entryPoint common.Address) (*GasEstimate, *jsonrpc.Error) {
	n, rerr := s.net(network)
	if rerr != nil {
		return nil, rerr
	}
	if rerr := n.checkEntryPoint(entryPoint); rerr != nil {
		return nil, rerr
	}
	sim := op.Copy()
	sim.MaxFeePerGas, sim.MaxPriorityFeePerGas = new(big.Int), new(big.Int)
	sim.VerificationGasLimit, sim.CallGasLimit, sim.PreVerificationGas = estimateVerificationGas, estimateCallGas, 0
	if len(sim.Signature) == 0 {
		sim.Signature = StubSignature()
	}
	if sim.Paymaster != nil {
		sim.PaymasterVerificationGasLimit, sim.PaymasterPostOpGasLimit = estimatePaymasterGas, estimatePaymasterGas
	}
	// An operation that follows the sender's pending ones is estimated as
	// if they had been included, as it is validated.
	lives, err := s.cfg.Store.LiveBySender(ctx, network, op.Sender)
	if err != nil {
		s.cfg.Logger.ErrorContext(ctx, "bundler: read mempool", "err", err)
		return nil, errInternal
	}
	prior, rerr := n.priorOps(ctx, op, lives)
	if rerr != nil {
		return nil, rerr
	}
	res, err := n.sim.execute(ctx, sim, prior)
	if err != nil {
		return nil, n.simulationError(ctx, err)
	}
	if !res.TargetSuccess {
		return nil, &jsonrpc.Error{Code: CodeExecutionReverted, Message: "UserOperation reverted during execution", Data: hexData(res.TargetResult)}
	}
	est := &GasEstimate{
		VerificationGasLimit: hexutil.Uint64(res.PreOpGas.Uint64()*12/10 + 20_000),
		CallGasLimit:         hexutil.Uint64(res.CallGasUsed.Uint64()*64/63*11/10 + 10_000),
	}
	if op.Paymaster != nil {
		pv := hexutil.Uint64(max(op.PaymasterVerificationGasLimit, paymasterVerificationGas))
		po := hexutil.Uint64(max(op.PaymasterPostOpGasLimit, res.PostOpGasUsed.Uint64()*12/10+10_000))
		est.PaymasterVerificationGasLimit, est.PaymasterPostOpGasLimit = &pv, &po
	}
	// preVerificationGas is computed on the operation as it will be sent:
	// with the estimated limits and a signature of a real one's length.
	final := *op
	final.VerificationGasLimit, final.CallGasLimit = uint64(est.VerificationGasLimit), uint64(est.CallGasLimit)
	est.PreVerificationGas = hexutil.Uint64(estimatedPreVerificationGas(&final))
	return est, nil
}

// OperationByHash is eth_getUserOperationByHash's answer.
type OperationByHash struct {
	UserOperation   *UserOperation `json:"userOperation"`
	EntryPoint      common.Address `json:"entryPoint"`
	TransactionHash *common.Hash   `json:"transactionHash"`
	BlockHash       *common.Hash   `json:"blockHash"`
	BlockNumber     *hexutil.Big   `json:"blockNumber"`
	// Status and Reason are latchd's: where the operation is (pending,
	// submitted, included, failed, replaced) and why it failed.
	Status Status `json:"status"`
	Reason string `json:"reason,omitempty"`
}

// UserOperationByHash returns an operation of the mempool, or nil when the
// bundler does not know it.
func (s *Service) UserOperationByHash(ctx context.Context, network string, hash common.Hash) (*OperationByHash, *jsonrpc.Error) {
	if _, rerr := s.net(network); rerr != nil {
		return nil, rerr
	}
	rec, err := s.cfg.Store.Get(ctx, hash)
	if err != nil {
		s.cfg.Logger.ErrorContext(ctx, "bundler: read operation", "err", err)
		return nil, errInternal
	}
	if rec == nil || rec.Network != network {
		return nil, nil
	}
	out := &OperationByHash{UserOperation: rec.Op, EntryPoint: rec.EntryPoint, Status: rec.Status, Reason: rec.Reason}
	if rec.Status == StatusIncluded {
		tx, block := rec.TxHash, rec.BlockHash
		out.TransactionHash, out.BlockHash = &tx, &block
		out.BlockNumber = (*hexutil.Big)(new(big.Int).SetUint64(rec.BlockNumber))
	}
	return out, nil
}

// Receipt is eth_getUserOperationReceipt's answer.
type Receipt struct {
	UserOpHash    common.Hash       `json:"userOpHash"`
	EntryPoint    common.Address    `json:"entryPoint"`
	Sender        common.Address    `json:"sender"`
	Nonce         *hexutil.Big      `json:"nonce"`
	Paymaster     common.Address    `json:"paymaster"`
	ActualGasCost *hexutil.Big      `json:"actualGasCost"`
	ActualGasUsed *hexutil.Big      `json:"actualGasUsed"`
	Success       bool              `json:"success"`
	Reason        hexutil.Bytes     `json:"reason"`
	Logs          []json.RawMessage `json:"logs"`
	Receipt       json.RawMessage   `json:"receipt"`
}

// rpcLog is the part of a log the receipt reads.
type rpcLog struct {
	Address common.Address `json:"address"`
	Topics  []common.Hash  `json:"topics"`
	Data    hexutil.Bytes  `json:"data"`
}

// UserOperationReceipt returns the receipt of an included operation, built
// from its bundle transaction's receipt and the EntryPoint's events, or nil
// while it is not included.
func (s *Service) UserOperationReceipt(ctx context.Context, network string, hash common.Hash) (*Receipt, *jsonrpc.Error) {
	n, rerr := s.net(network)
	if rerr != nil {
		return nil, rerr
	}
	recNetwork, status, txHash, found, err := s.cfg.Store.bundled(ctx, hash)
	if err != nil {
		s.cfg.Logger.ErrorContext(ctx, "bundler: read operation", "err", err)
		return nil, errInternal
	}
	if !found || recNetwork != network || status != StatusIncluded {
		return nil, nil
	}
	var raw json.RawMessage
	if err := n.Node.Call(ctx, &raw, "eth_getTransactionReceipt", txHash); err != nil {
		s.cfg.Logger.WarnContext(ctx, "bundler: read bundle receipt", "err", err)
		return nil, rpcError(jsonrpc.CodeInternal, "The network's node did not answer")
	}
	r, err := buildReceipt(raw, n.EntryPoint, hash)
	if err != nil {
		s.cfg.Logger.WarnContext(ctx, "bundler: bundle receipt", "tx", txHash, "err", err)
		return nil, nil // reorganised away: not included any more
	}
	return r, nil
}

var errNoEvent = errors.New("bundler: no UserOperationEvent for the operation")

// buildReceipt finds hash's UserOperationEvent in a bundle's receipt; the
// operation's logs are those between the previous operation's event (or
// BeforeExecution) and its own.
func buildReceipt(raw json.RawMessage, entryPoint common.Address, hash common.Hash) (*Receipt, error) {
	var txr struct {
		Logs []json.RawMessage `json:"logs"`
	}
	if len(raw) == 0 || string(raw) == "null" {
		return nil, errNoEvent
	}
	if err := json.Unmarshal(raw, &txr); err != nil {
		return nil, err
	}
	start := 0
	var reason []byte
	for i, l := range txr.Logs {
		var lg rpcLog
		if err := json.Unmarshal(l, &lg); err != nil {
			return nil, err
		}
		if lg.Address != entryPoint || len(lg.Topics) == 0 {
			continue
		}
		switch lg.Topics[0] {
		case beforeExecID:
			start = i + 1
		case revertReasonID:
			if len(lg.Topics) > 1 && lg.Topics[1] == hash {
				vals, err := entryPointABI.Events["UserOperationRevertReason"].Inputs.NonIndexed().Unpack(lg.Data)
				if err == nil && len(vals) == 2 {
					reason = vals[1].([]byte)
				}
			}
		case userOpEventID:
			if len(lg.Topics) < 4 || lg.Topics[1] != hash {
				start = i + 1
				continue
			}
			vals, err := entryPointABI.Events["UserOperationEvent"].Inputs.NonIndexed().Unpack(lg.Data)
			if err != nil || len(vals) != 4 {
				return nil, errors.New("bundler: malformed UserOperationEvent")
			}
			return &Receipt{
				UserOpHash:    hash,
				EntryPoint:    entryPoint,
				Sender:        common.BytesToAddress(lg.Topics[2].Bytes()),
				Paymaster:     common.BytesToAddress(lg.Topics[3].Bytes()),
				Nonce:         (*hexutil.Big)(vals[0].(*big.Int)),
				Success:       vals[1].(bool),
				ActualGasCost: (*hexutil.Big)(vals[2].(*big.Int)),
				ActualGasUsed: (*hexutil.Big)(vals[3].(*big.Int)),
				Reason:        reason,
				Logs:          append([]json.RawMessage{}, txr.Logs[start:i]...),
				Receipt:       raw,
			}, nil
		}
	}
	return nil, errNoEvent
}
