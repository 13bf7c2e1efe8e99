package bundler

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/latchkit/latch/contracts"
)

// Node is a network's JSON-RPC (internal/evm.Client satisfies it). Errors
// answered by the node must keep their revert data reachable through
// errors.As(err, *rpc.DataError).
type Node interface {
	Call(ctx context.Context, result any, method string, args ...any) error
}

var (
	entryPointABI   = contracts.MustLoad("LatchEntryPoint").ABI
	simulationsCode = contracts.MustLoad("LatchEntryPointSimulations")
	accountABI      = contracts.MustLoad("LatchSmartAccount").ABI
	factoryABI      = contracts.MustLoad("LatchSmartAccountFactory").ABI
	userOpEventID   = entryPointABI.Events["UserOperationEvent"].ID
	revertReasonID  = entryPointABI.Events["UserOperationRevertReason"].ID
	beforeExecID    = entryPointABI.Events["BeforeExecution"].ID
)

// simulationGasCap bounds a simulation's eth_call (geth's default RPC gas cap is 50M).
const simulationGasCap = 30_000_000

// FailedOpError is the EntryPoint's FailedOp or FailedOpWithRevert: the
// operation at Index failed validation with Reason ("AA21 didn't pay prefund").
type FailedOpError struct {
	Index  int
	Reason string
	Inner  []byte
}

func (e *FailedOpError) Error() string {
	if len(e.Inner) > 0 {
		return fmt.Sprintf("%s (%s)", e.Reason, hexutil.Encode(e.Inner))
	}
	return e.Reason
}

// RevertError is a revert that is not FailedOp, with its data.
type RevertError struct {
	Data []byte
	Msg  string
}

func (e *RevertError) Error() string { return "execution reverted: " + e.Msg }

// decodeRevert turns a node's eth_call or eth_estimateGas error into a
// FailedOpError or RevertError when it carries revert data; other errors
// are returned as they are.
func decodeRevert(err error) error {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return err
	}
	s, ok := de.ErrorData().(string)
	if !ok {
		return err
	}
	data, derr := hexutil.Decode(s)
	if derr != nil {
		return &RevertError{Msg: de.Error()}
	}
	return revertError(data, de.Error())
}

// revertError is the FailedOpError or RevertError of revert data.
func revertError(data []byte, msg string) error {
	if len(data) < 4 {
		return &RevertError{Data: data, Msg: msg}
	}
	for _, name := range []string{"FailedOp", "FailedOpWithRevert"} {
		e := entryPointABI.Errors[name]
		if string(data[:4]) != string(e.ID[:4]) {
			continue
		}
		vals, uerr := e.Inputs.Unpack(data[4:])
		if uerr != nil {
			break
		}
		fo := &FailedOpError{Index: int(vals[0].(*big.Int).Int64()), Reason: vals[1].(string)}
		if len(vals) > 2 {
			fo.Inner = vals[2].([]byte)
		}
		return fo
	}
	return &RevertError{Data: data, Msg: msg}
}

// validationResult is LatchEntryPointSimulations.ValidationResult.
type validationResult struct {
	PreOpGas                *big.Int
	Prefund                 *big.Int
	AccountValidationData   *big.Int
	PaymasterValidationData *big.Int
	PaymasterContext        []byte
}

// executionResult is LatchEntryPointSimulations.ExecutionResult.
type executionResult struct {
	PreOpGas                *big.Int
	CallGasUsed             *big.Int
	PostOpGasUsed           *big.Int
	TargetSuccess           bool
	TargetResult            []byte
	AccountValidationData   *big.Int
	PaymasterValidationData *big.Int
}

// simulator runs LatchEntryPointSimulations at a network's EntryPoint
// address through eth_call state overrides, so simulations see the
// EntryPoint's deposits and nonces (the storage layouts agree).
type simulator struct {
	node       Node
	entryPoint common.Address
	// from is the bundler key's address, as in its bundles: the tx.origin
	// LatchVerifyingPaymaster compares with the bundler an approval names.
	from common.Address

	mu   sync.Mutex
	code hexutil.Bytes // runtime code, fetched once
}

// runtimeCode asks the node to run the simulation contract's creation code
// (eth_call without a recipient answers the code it would deploy), once.
func (s *simulator) runtimeCode(ctx context.Context) (hexutil.Bytes, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.code != nil {
		return s.code, nil
	}
	var code hexutil.Bytes
	err := s.node.Call(ctx, &code, "eth_call", map[string]any{"from": s.from, "data": hexutil.Bytes(simulationsCode.Bytecode), "gas": hexutil.Uint64(simulationGasCap)}, "latest")
	if err != nil {
		return nil, fmt.Errorf("bundler: build the simulation code: %w", err)
	}
	if len(code) == 0 {
		return nil, errors.New("bundler: the node returned no simulation code")
	}
	s.code = code
	return code, nil
}

// after is what a simulation takes into account of the sender's earlier
// operations still in the mempool: their nonces (the EntryPoint's
// sequence number of the operation's key is set to NextSeq) and the
// deployment of the sender by one of them (its initCode runs first).
// The zero value simulates against the chain as it is.
type after struct {
	NextSeq    *big.Int // nil: the chain's own
	DeployCode []byte   // nil: none
}

// Storage of LatchEntryPoint (and the canonical EntryPoint v0.7, whose
// layout it keeps): deposits at slot 0, nonceSequenceNumber at slot 1.
const (
	depositsSlot = 0
	nonceSlot    = 1
)

// nonceStorageSlot is the EntryPoint's storage slot of
// nonceSequenceNumber[sender][key]: a mapping of mappings, so
// keccak256(key . keccak256(sender . slot)), each word left-padded.
func nonceStorageSlot(sender common.Address, key *big.Int) common.Hash {
	inner := crypto.Keccak256(common.LeftPadBytes(sender[:], 32), common.LeftPadBytes(big.NewInt(nonceSlot).Bytes(), 32))
	return common.BytesToHash(crypto.Keccak256(common.LeftPadBytes(key.Bytes(), 32), inner))
}

// depositStorageSlot is the slot of deposits[entity].deposit (the first
// word of its DepositInfo).
func depositStorageSlot(entity common.Address) common.Hash {
	return common.BytesToHash(crypto.Keccak256(common.LeftPadBytes(entity[:], 32), common.LeftPadBytes(big.NewInt(depositsSlot).Bytes(), 32)))
}

// nonceKey and nonceSeq split a nonce into its 192-bit key and 64-bit sequence number.
func nonceKey(nonce *big.Int) *big.Int { return new(big.Int).Rsh(nonce, 64) }
func nonceSeq(nonce *big.Int) *big.Int {
	return new(big.Int).And(nonce, new(big.Int).SetUint64(^uint64(0)))
}

// simulation is one call of LatchEntryPointSimulations: the eth_call
// arguments and the state override that puts its code at the EntryPoint.
type simulation struct {
	args     map[string]any
	override map[common.Address]map[string]any
}

func (s *simulator) request(ctx context.Context, method string, op *UserOperation, prior after) (*simulation, error) {
	code, err := s.runtimeCode(ctx)
	if err != nil {
		return nil, err
	}
	var data []byte
	if prior.DeployCode != nil {
		data, err = simulationsCode.ABI.Pack(method+"AfterDeploy", prior.DeployCode, op.Pack())
	} else {
		data, err = simulationsCode.ABI.Pack(method, op.Pack())
	}
	if err != nil {
		return nil, err
	}
	override := map[string]any{"code": code}
	if prior.NextSeq != nil {
		override["stateDiff"] = map[common.Hash]common.Hash{
			nonceStorageSlot(op.Sender, nonceKey(op.Nonce)): common.BigToHash(prior.NextSeq),
		}
	}
	return &simulation{
		args:     map[string]any{"from": s.from, "to": s.entryPoint, "data": hexutil.Bytes(data), "gas": hexutil.Uint64(simulationGasCap)},
		override: map[common.Address]map[string]any{s.entryPoint: override},
	}, nil
}

func (s *simulator) call(ctx context.Context, method string, op *UserOperation, prior after, out any) error {
	req, err := s.request(ctx, method, op, prior)
	if err != nil {
		return err
	}
	var res hexutil.Bytes
	if err := s.node.Call(ctx, &res, "eth_call", req.args, "latest", req.override); err != nil {
		return decodeRevert(err)
	}
	return unpackSimulation(method, res, out)
}

// unpackSimulation decodes what a simulation method returned into out.
func unpackSimulation(method string, res []byte, out any) error {
	vals, err := simulationsCode.ABI.Unpack(method, res) // the AfterDeploy variants answer the same
	if err != nil || len(vals) != 1 {
		return fmt.Errorf("bundler: %s answer: %v", method, err)
	}
	return convert(vals[0], out)
}

// convert copies an unpacked ABI tuple into out, a pointer to a struct with the same field names.
func convert(v, out any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("bundler: unpack: %v", r)
		}
	}()
	conv := abi.ConvertType(v, out)
	if conv == nil {
		return errors.New("bundler: unpack failed")
	}
	return nil
}

func (s *simulator) validate(ctx context.Context, op *UserOperation, prior after) (*validationResult, error) {
	var r validationResult
	return &r, s.call(ctx, "simulateValidation", op, prior, &r)
}

func (s *simulator) execute(ctx context.Context, op *UserOperation, prior after) (*executionResult, error) {
	var r executionResult
	return &r, s.call(ctx, "simulateHandleOp", op, prior, &r)
}

// chainNonce is the EntryPoint's next nonce of sender under key.
func (s *simulator) chainNonce(ctx context.Context, sender common.Address, key *big.Int) (*big.Int, error) {
	data, err := entryPointABI.Pack("getNonce", sender, key)
	if err != nil {
		return nil, err
	}
	var out hexutil.Bytes
	if err := s.node.Call(ctx, &out, "eth_call", map[string]any{"to": s.entryPoint, "data": hexutil.Bytes(data)}, "latest"); err != nil {
		return nil, err
	}
	return new(big.Int).SetBytes(out), nil
}

// validationData is a parsed validationData word.
type validationData struct {
	aggregator common.Address // 1: signature failure
	validAfter uint64
	validUntil uint64 // 0: no end
}

func parseValidationData(v *big.Int) validationData {
	var b [32]byte
	v.FillBytes(b[:])
	d := validationData{aggregator: common.BytesToAddress(b[12:32])}
	d.validUntil = new(big.Int).SetBytes(b[6:12]).Uint64()
	d.validAfter = new(big.Int).SetBytes(b[0:6]).Uint64()
	return d
}

var sigFailed = common.BigToAddress(big.NewInt(1))

// isPaymasterReason tells the paymaster's FailedOp reasons (AA3x) from the account's.
func isPaymasterReason(reason string) bool { return strings.HasPrefix(reason, "AA3") }
