package bundler

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
)

// erc7562Tracer is go-ethereum's native tracer for ERC-7562 (geth 1.16 and
// later, Erigon; `--http.api …,debug`). Run through debug_traceCall, it
// answers the call tree with, per frame, the opcodes used, the storage
// slots read and written, the code sizes of the addresses touched and
// whether the frame ran out of gas, and the keccak preimages of the whole
// call, from which associated storage is worked out (erc7562.go).
const erc7562Tracer = "erc7562Tracer"

// traceRecheck is how long a network whose node refused the tracer is
// simulated without it before the bundler asks again (an operator may
// enable the debug API, or an upstream that has it may take over).
const traceRecheck = 10 * time.Minute

// UntracedPolicy is what the bundler does on a network whose node cannot
// trace (no debug_traceCall or no erc7562Tracer), where ERC-7562's rules
// cannot be checked.
type UntracedPolicy string

const (
	// UntracedAccept validates operations by simulation alone (and again
	// before bundling), logging once that the rules are not applied.
	UntracedAccept UntracedPolicy = "accept"
	// UntracedRefuse refuses every operation on such a network.
	UntracedRefuse UntracedPolicy = "refuse"
)

// frame is one call frame of erc7562Tracer's answer.
type frame struct {
	Type     string          `json:"type"` // CALL, STATICCALL, DELEGATECALL, CALLCODE, CREATE, CREATE2
	From     common.Address  `json:"from"`
	To       *common.Address `json:"to"` // nil: a CREATE that failed
	Input    hexutil.Bytes   `json:"input"`
	Output   hexutil.Bytes   `json:"output"`
	Error    string          `json:"error"`
	Value    *hexutil.Big    `json:"value"`
	OutOfGas bool            `json:"outOfGas"`

	AccessedSlots struct {
		Reads           map[common.Hash]json.RawMessage `json:"reads"`
		Writes          map[common.Hash]uint64          `json:"writes"`
		TransientReads  map[common.Hash]uint64          `json:"transientReads"`
		TransientWrites map[common.Hash]uint64          `json:"transientWrites"`
	} `json:"accessedSlots"`
	ExtCodeAccessInfo []common.Address `json:"extCodeAccessInfo"`
	// UsedOpcodes counts opcodes by number (hex keys); the tracer leaves
	// out the stack and arithmetic ones, and GAS when a *CALL follows it.
	UsedOpcodes  map[hexutil.Uint64]uint64 `json:"usedOpcodes"`
	ContractSize map[common.Address]struct {
		ContractSize int `json:"contractSize"`
	} `json:"contractSize"`
	// Keccak holds the preimages of every KECCAK256 of the call (top frame only).
	Keccak []hexutil.Bytes `json:"keccak"`
	Calls  []frame         `json:"calls"`
}

// to is the frame's callee (the created address for CREATE*), zero when a creation failed.
func (f *frame) to() common.Address {
	if f.To == nil {
		return common.Address{}
	}
	return *f.To
}

// storageOwner is the address whose storage the frame's SLOAD/SSTORE use:
// the caller's for DELEGATECALL and CALLCODE, else the callee's.
func (f *frame) storageOwner() common.Address {
	if f.Type == "DELEGATECALL" || f.Type == "CALLCODE" {
		return f.From
	}
	return f.to()
}

// tracerConfig keeps erc7562Tracer's answer to what the rules read: the
// top stack item of each opcode (for the EXTCODE* address) and, in
// usedOpcodes, only the opcodes a rule names (and unassigned ones), not
// the thousands of others a validation runs.
var tracerConfig = func() map[string]any {
	var ignored []hexutil.Uint64
	for op := 0; op < 256; op++ {
		b := byte(op)
		if _, banned := bannedOpcodes[b]; banned || !assigned(b) || b == opcodeBalance || b == opcodeSelfBalance || b == opcodeGas {
			continue
		}
		ignored = append(ignored, hexutil.Uint64(op))
	}
	return map[string]any{"stackTopItemsSize": 1, "ignoredOpcodes": ignored}
}()

// errTracingUnsupported: the node answered that it cannot run erc7562Tracer.
var errTracingUnsupported = errors.New("bundler: the node cannot trace (debug_traceCall with erc7562Tracer)")

// trace runs a simulation through debug_traceCall with erc7562Tracer and
// returns the trace; the simulation's own revert is in the top frame.
func (s *simulator) trace(ctx context.Context, method string, op *UserOperation, prior after) (*frame, error) {
	req, err := s.request(ctx, method, op, prior)
	if err != nil {
		return nil, err
	}
	cfg := map[string]any{
		"tracer":         erc7562Tracer,
		"tracerConfig":   tracerConfig,
		"stateOverrides": req.override,
	}
	var top frame
	if err := s.node.Call(ctx, &top, "debug_traceCall", req.args, "latest", cfg); err != nil {
		if cannotTrace(err) {
			return nil, errTracingUnsupported
		}
		return nil, err
	}
	return &top, nil
}

// cannotTrace recognises a node's answer that it has no debug_traceCall or
// no erc7562Tracer (geth: "the method debug_traceCall does not exist/is not
// available", "tracer not found"; hosted nodes: other codes naming the
// tracer), as opposed to a failure to answer.
func cannotTrace(err error) bool {
	var re rpc.Error
	if !errors.As(err, &re) {
		return false
	}
	msg := strings.ToLower(re.Error())
	return re.ErrorCode() == -32601 || strings.Contains(msg, "tracer") || strings.Contains(msg, "not supported") ||
		strings.Contains(msg, "does not exist") || strings.Contains(msg, "not available")
}

// result decodes a traced simulation's outcome as call would answer it:
// out filled, or the FailedOpError or RevertError it reverted with.
func (f *frame) result(method string, out any) error {
	if f.Error != "" {
		return revertError(f.Output, f.Error)
	}
	return unpackSimulation(method, f.Output, out)
}

// tracing remembers whether a network's node can trace, rechecking a
// refusal after traceRecheck.
type tracing struct {
	mu       sync.Mutex
	refused  time.Time // zero: not refused (or rechecking)
	reported bool      // the refusal was logged
}

// try reports whether a traced simulation should be attempted now.
func (t *tracing) try(now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.refused.IsZero() || now.Sub(t.refused) >= traceRecheck
}

// refuse records that the node refused to trace at now, and reports
// whether this is news worth logging (the first refusal after a success).
func (t *tracing) refuse(now time.Time) (news bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.refused = now
	news = !t.reported
	t.reported = true
	return news
}

// traced records a successful trace.
func (t *tracing) traced() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.refused, t.reported = time.Time{}, false
}

// value is a call frame's value in wei (nil: none).
func (f *frame) value() *big.Int {
	if f.Value == nil {
		return new(big.Int)
	}
	return f.Value.ToInt()
}
