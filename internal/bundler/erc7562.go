package bundler

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/jsonrpc"
)

// ERC-7562's validation rules, checked on erc7562Tracer's trace of an
// operation's simulated validation (trace.go). They keep validation to
// what cannot change between the bundler's simulation and the block that
// includes the operation, except by a transaction the operation's own
// entities pay for: no environment opcodes (the block's time and number,
// gas price, coinbase…), no storage but the account's own and storage
// associated with it unless the entity is staked, no code that is not
// there yet. An operation that breaks them could validate when simulated
// and revert on chain, at the bundler's cost.
//
// Applied: OP-011 to OP-013 (banned and unassigned opcodes, GAS only
// before a *CALL), OP-020 (out of gas), OP-031 (one CREATE2, by the
// factory, of the sender), OP-041/042 (no address without code but the
// sender), OP-051 to OP-054 (EntryPoint access), OP-061 (no CALL with
// value but to the EntryPoint), OP-062 (precompiles 1 to 9 and RIP-7212's),
// OP-070 (transient storage as storage), OP-080 (BALANCE and SELFBALANCE
// only from staked entities), STO-010 to STO-033. Not applied: COD-010
// and the local rules STO-040/041, which guard a shared mempool's
// bundles; this bundler's bundle estimate (bundle.go) drops an operation
// that another in the bundle invalidates, before anything is sent. One
// exception: latchd's own paymaster may read ORIGIN (originAllowed).

// Entities of an operation's validation phases (ERC-7562's names).
const (
	entityFactory   = "factory"
	entityAccount   = "account"
	entityPaymaster = "paymaster"
)

// ERC-7562's staking constants: MIN_UNSTAKE_DELAY, and this bundler's
// default MIN_STAKE_VALUE ("adjustable per chain", about $1000 of the
// native currency): one ether.
const minUnstakeDelay = 86400

// DefaultMinStake is Config.MinStake's default, one ether.
var DefaultMinStake = big.NewInt(1e18)

// CodeRuleViolation is ERC-7769's code for an ERC-7562 validation rule
// violation (eth_sendUserOperation).
const CodeRuleViolation = -32502

// violation is one broken rule: which, by which entity, and what it did.
type violation struct {
	Rule    string         `json:"rule"`
	Entity  string         `json:"entity"`
	Address common.Address `json:"address"` // the entity's
	Detail  string         `json:"-"`
}

func (v *violation) rpcError() *jsonrpc.Error {
	data, _ := json.Marshal(v)
	return &jsonrpc.Error{Code: CodeRuleViolation, Message: v.Error(), Data: data}
}

func (v *violation) Error() string {
	return fmt.Sprintf("ERC-7562 %s: the %s %s %s during validation", v.Rule, v.Entity, v.Address.Hex(), v.Detail)
}

// bannedOpcodes are OP-011's opcodes and the block-environment ones added
// since (BLOBHASH, BLOBBASEFEE), by number.
var bannedOpcodes = map[byte]string{
	0x32: "ORIGIN", 0x3a: "GASPRICE", 0x40: "BLOCKHASH", 0x41: "COINBASE", 0x42: "TIMESTAMP", 0x43: "NUMBER",
	0x44: "PREVRANDAO", 0x45: "GASLIMIT", 0x48: "BASEFEE", 0x49: "BLOBHASH", 0x4a: "BLOBBASEFEE",
	0xf0: "CREATE", 0xfe: "INVALID", 0xff: "SELFDESTRUCT",
}

// assigned tells an opcode the EVM defines (through Osaka) from an
// unassigned one (OP-013).
func assigned(op byte) bool {
	switch {
	case op <= 0x0b, op >= 0x10 && op <= 0x1e, op == 0x20, op >= 0x30 && op <= 0x4a, op >= 0x50 && op <= 0xa4:
		return true
	case op >= 0xf0 && op <= 0xf5, op == 0xfa, op >= 0xfd:
		return true
	}
	return false
}

// The opcodes ERC-7562 treats apart.
const (
	opcodeBalance     = 0x31
	opcodeOrigin      = 0x32
	opcodeSelfBalance = 0x47
	opcodeGas         = 0x5a
)

// precompileAllowed: OP-062 admits the core precompiles 1 to 9 and
// RIP-7212's secp256r1 verifier (0x100), which read no state.
func precompileAllowed(a common.Address) bool {
	n := new(big.Int).SetBytes(a[:])
	return (n.Sign() > 0 && n.Cmp(big.NewInt(9)) <= 0) || n.Cmp(big.NewInt(0x100)) == 0
}

// isPrecompileRange: addresses up to 0x100 are reserved for precompiles;
// one outside the allowed set is refused as OP-062 rather than OP-041.
func isPrecompileRange(a common.Address) bool {
	return new(big.Int).SetBytes(a[:]).Cmp(big.NewInt(0x100)) <= 0
}

var depositToID = entryPointABI.Methods["depositTo"].ID

// ruleCheck checks one operation's trace. staked reports whether an
// entity is staked (asked only when a rule depends on it).
type ruleCheck struct {
	op            *UserOperation
	entryPoint    common.Address
	senderCreator common.Address
	staked        func(common.Address) (bool, error)
	// ownPaymaster is latchd's paymaster on the network (zero: none),
	// whose own code alone may read ORIGIN (originAllowed).
	ownPaymaster common.Address
	// assoc holds, per entity address, the bases keccak(addr || x) of the
	// storage slots associated with it (ERC-7562: a slot equal to addr, or
	// within 128 of such a base).
	assoc map[common.Address][]*big.Int
}

// senderCreatorOf is the EntryPoint's SenderCreator: its first CREATE
// (nonce 1), for LatchEntryPoint as for the canonical EntryPoint v0.7.
func senderCreatorOf(entryPoint common.Address) common.Address {
	return crypto.CreateAddress(entryPoint, 1)
}

// phases are the frames of one operation's validation, the EntryPoint's
// calls: to its SenderCreator, which calls the factory (nil without one),
// to the sender's validateUserOp, and to the paymaster's
// validatePaymasterUserOp (nil without one).
type phases struct {
	factory, account, paymaster *frame
}

// simulationPhases finds op's phases in a traced simulateValidation. A call
// to the SenderCreator when op has no factory is an earlier operation's
// deployment of the sender (…AfterDeploy), validated when that one was
// accepted: not op's.
func simulationPhases(op *UserOperation, top *frame, entryPoint common.Address) phases {
	var ph phases
	senderCreator := senderCreatorOf(entryPoint)
	for i := range top.Calls {
		f := &top.Calls[i]
		switch to := f.to(); {
		case to == senderCreator && op.Factory != nil:
			ph.factory = f
		case to == op.Sender && ph.account == nil:
			ph.account = f
		case op.Paymaster != nil && to == *op.Paymaster && ph.paymaster == nil:
			ph.paymaster = f
		}
	}
	return ph
}

// bundlePhases finds each operation's phases in a traced handleOps(ops):
// the EntryPoint validates the operations in order, each one's factory,
// account and paymaster, before it executes any.
func bundlePhases(ops []*UserOperation, top *frame, entryPoint common.Address) ([]phases, error) {
	senderCreator := senderCreatorOf(entryPoint)
	out := make([]phases, len(ops))
	next := 0
	find := func(to common.Address) *frame {
		for ; next < len(top.Calls); next++ {
			if top.Calls[next].to() == to {
				next++
				return &top.Calls[next-1]
			}
		}
		return nil
	}
	for i, op := range ops {
		if op.Factory != nil {
			out[i].factory = find(senderCreator)
		}
		out[i].account = find(op.Sender)
		if op.Paymaster != nil {
			out[i].paymaster = find(*op.Paymaster)
		}
		if out[i].account == nil || (op.Factory != nil && out[i].factory == nil) || (op.Paymaster != nil && out[i].paymaster == nil) {
			return nil, fmt.Errorf("bundler: the bundle's trace lacks the validation of operation %d", i)
		}
	}
	return out, nil
}

// validationData is what the phases' validation returned: the account's
// validationData, and the paymaster's (the second word of its (context,
// validationData)).
func (ph phases) validationData() *validationResult {
	r := &validationResult{AccountValidationData: new(big.Int), PaymasterValidationData: new(big.Int)}
	if ph.account != nil && len(ph.account.Output) >= 32 {
		r.AccountValidationData.SetBytes(ph.account.Output[:32])
	}
	if ph.paymaster != nil && len(ph.paymaster.Output) >= 64 {
		r.PaymasterValidationData.SetBytes(ph.paymaster.Output[32:64])
	}
	return r
}

// checkRules returns the first rule op's validation phases break, or nil;
// preimages are the keccak preimages of the traced call; ownPaymaster is
// latchd's paymaster on the network (zero: none).
func checkRules(op *UserOperation, ph phases, preimages []hexutil.Bytes, entryPoint, ownPaymaster common.Address, staked func(common.Address) (bool, error)) (*violation, error) {
	c := &ruleCheck{op: op, entryPoint: entryPoint, senderCreator: senderCreatorOf(entryPoint), staked: staked, ownPaymaster: ownPaymaster}
	c.associate(preimages)
	if ph.factory != nil {
		for j := range ph.factory.Calls { // the SenderCreator's call of the factory
			if v, err := c.phase(entityFactory, *op.Factory, &ph.factory.Calls[j]); v != nil || err != nil {
				return v, err
			}
		}
	}
	if ph.account != nil {
		if v, err := c.phase(entityAccount, op.Sender, ph.account); v != nil || err != nil {
			return v, err
		}
	}
	if ph.paymaster != nil {
		return c.phase(entityPaymaster, *op.Paymaster, ph.paymaster)
	}
	return nil, nil
}

// staticValidation reports whether op's traced validation (top, its
// phases ph) read no state that can change before its bundle, so that
// validating it again needs no trace: the bundle's eth_call checks what
// the EntryPoint keeps (nonces, deposits), and the rest runs as it did.
// That holds when op has a paymaster (missingAccountFunds, which follows
// the sender's deposit, is then 0 for good), no frame of its phases used
// storage (transient too), BALANCE or SELFBALANCE, and no address they or
// the EntryPoint used has 23 bytes of code: an EIP-7702 delegation, which
// its owner can change. (The rules bar the environment opcodes, and calls
// to addresses without code, which could get some.)
func staticValidation(op *UserOperation, top *frame, ph phases, entryPoint common.Address) bool {
	if op.Paymaster == nil || delegates(top) {
		return false
	}
	var static func(f *frame) bool
	static = func(f *frame) bool {
		if f.to() == entryPoint {
			return true // the EntryPoint's own state: checked by the bundle's eth_call
		}
		s := &f.AccessedSlots
		if len(s.Reads)+len(s.Writes)+len(s.TransientReads)+len(s.TransientWrites) > 0 || delegates(f) ||
			f.UsedOpcodes[opcodeBalance] > 0 || f.UsedOpcodes[opcodeSelfBalance] > 0 {
			return false
		}
		for i := range f.Calls {
			if !static(&f.Calls[i]) {
				return false
			}
		}
		return true
	}
	for _, root := range []*frame{ph.factory, ph.account, ph.paymaster} {
		if root != nil && !static(root) {
			return false
		}
	}
	return true
}

// eip7702CodeSize is the size of an EIP-7702 delegation designator (0xef0100 || address).
const eip7702CodeSize = 23

// delegates reports whether f used an address whose code may be an EIP-7702 delegation.
func delegates(f *frame) bool {
	for _, size := range f.ContractSize {
		if size.ContractSize == eip7702CodeSize {
			return true
		}
	}
	return false
}

// associate collects, for the operation's entities, the slot bases their
// address is the first word of.
func (c *ruleCheck) associate(preimages []hexutil.Bytes) {
	c.assoc = map[common.Address][]*big.Int{}
	addrs := []common.Address{c.op.Sender}
	if c.op.Factory != nil {
		addrs = append(addrs, *c.op.Factory)
	}
	if c.op.Paymaster != nil {
		addrs = append(addrs, *c.op.Paymaster)
	}
	for _, p := range preimages {
		if len(p) < 32 {
			continue
		}
		for _, a := range addrs {
			if bytes.Equal(p[:32], common.LeftPadBytes(a[:], 32)) {
				c.assoc[a] = append(c.assoc[a], new(big.Int).SetBytes(crypto.Keccak256(p)))
			}
		}
	}
}

// associated reports whether slot is associated with a.
func (c *ruleCheck) associated(slot common.Hash, a common.Address) bool {
	if slot == common.BytesToHash(a[:]) {
		return true
	}
	s := slot.Big()
	for _, base := range c.assoc[a] {
		d := new(big.Int).Sub(s, base)
		if d.Sign() >= 0 && d.Cmp(big.NewInt(128)) <= 0 {
			return true
		}
	}
	return false
}

// phaseState is what a phase's frames share: who runs it and the CREATE2s seen.
type phaseState struct {
	entity  string
	address common.Address
	creates int
	staked  *bool
}

func (c *ruleCheck) phase(entity string, addr common.Address, root *frame) (*violation, error) {
	return c.frame(&phaseState{entity: entity, address: addr}, root)
}

func (c *ruleCheck) isStaked(ps *phaseState) (bool, error) {
	if ps.staked == nil {
		s, err := c.staked(ps.address)
		if err != nil {
			return false, err
		}
		ps.staked = &s
	}
	return *ps.staked, nil
}

func (c *ruleCheck) violate(ps *phaseState, rule, format string, args ...any) *violation {
	return &violation{Rule: rule, Entity: ps.entity, Address: ps.address, Detail: fmt.Sprintf(format, args...)}
}

// frame checks f, run by the phase's entity, and the frames it calls.
func (c *ruleCheck) frame(ps *phaseState, f *frame) (*violation, error) {
	to := f.to()
	if to == c.entryPoint {
		return c.entryPointCall(ps, f), nil // the EntryPoint's own code runs below: not the entity's
	}
	switch f.Type {
	case "CREATE2":
		ps.creates++
		if ps.entity != entityFactory || ps.creates > 1 || to != c.op.Sender {
			return c.violate(ps, "OP-031", "used CREATE2 (only the factory may, once, to deploy the sender)"), nil
		}
	case "CALL":
		if f.value().Sign() > 0 {
			return c.violate(ps, "OP-061", "sent value to %s (only the EntryPoint may receive value)", to.Hex()), nil
		}
	}
	if v, err := c.opcodes(ps, f); v != nil || err != nil {
		return v, err
	}
	if f.OutOfGas {
		return c.violate(ps, "OP-020", "ran out of gas in a call to %s", to.Hex()), nil
	}
	for _, a := range f.ExtCodeAccessInfo {
		if a == c.entryPoint {
			return c.violate(ps, "OP-054", "read the EntryPoint's code"), nil
		}
	}
	for a, size := range f.ContractSize {
		if size.ContractSize > 0 || a == c.op.Sender || a == c.entryPoint || precompileAllowed(a) {
			continue
		}
		if isPrecompileRange(a) {
			return c.violate(ps, "OP-062", "called precompile %s (only 1 to 9 and 0x100 are allowed)", a.Hex()), nil
		}
		return c.violate(ps, "OP-041", "used %s, an address without code", a.Hex()), nil
	}
	if v, err := c.storage(ps, f); v != nil || err != nil {
		return v, err
	}
	for i := range f.Calls {
		if v, err := c.frame(ps, &f.Calls[i]); v != nil || err != nil {
			return v, err
		}
	}
	return nil, nil
}

// entryPointCall: an entity may call the EntryPoint only to deposit for
// the sender (depositTo(sender) from the sender or factory, OP-052) or
// through its receive function from the sender (OP-053).
func (c *ruleCheck) entryPointCall(ps *phaseState, f *frame) *violation {
	switch {
	case len(f.Input) == 0 && f.From == c.op.Sender:
		return nil
	case len(f.Input) == 36 && bytes.Equal(f.Input[:4], depositToID) && common.BytesToAddress(f.Input[4:]) == c.op.Sender &&
		(f.From == c.op.Sender || (c.op.Factory != nil && f.From == *c.op.Factory)):
		return nil
	}
	return c.violate(ps, "OP-054", "called the EntryPoint (only depositTo(sender) and its receive function are allowed)")
}

func (c *ruleCheck) opcodes(ps *phaseState, f *frame) (*violation, error) {
	for n := range f.UsedOpcodes {
		op := byte(n)
		if name, ok := bannedOpcodes[op]; ok && !(op == opcodeOrigin && c.originAllowed(ps, f)) {
			return c.violate(ps, "OP-011", "used %s", name), nil
		}
		switch {
		case op == opcodeGas:
			return c.violate(ps, "OP-012", "used GAS other than before a *CALL"), nil
		case !assigned(op):
			return c.violate(ps, "OP-013", "used the unassigned opcode 0x%02x", op), nil
		case op == opcodeBalance || op == opcodeSelfBalance:
			staked, err := c.isStaked(ps)
			if err != nil {
				return nil, err
			}
			if !staked {
				return c.violate(ps, "OP-080", "used BALANCE or SELFBALANCE without being staked"), nil
			}
		}
	}
	return nil, nil
}

// originAllowed is the one exception to OP-011: ORIGIN run by latchd's
// own paymaster's code in its validation phase (not in a call it makes,
// not by another entity or another copy of it). The paymaster compares
// tx.origin with the bundler its approval names, which this bundler's
// simulations (from its key) and bundles (sent by its key) agree on.
func (c *ruleCheck) originAllowed(ps *phaseState, f *frame) bool {
	own := c.ownPaymaster
	return own != (common.Address{}) && ps.entity == entityPaymaster && ps.address == own &&
		f.to() == own && (f.Type == "CALL" || f.Type == "STATICCALL")
}

// storage applies STO-010 to STO-033 (OP-070: transient storage alike) to
// the slots f read and wrote.
func (c *ruleCheck) storage(ps *phaseState, f *frame) (*violation, error) {
	owner := f.storageOwner()
	if owner == c.op.Sender {
		return nil, nil // STO-010: the account's own storage
	}
	s := &f.AccessedSlots
	for slot := range s.Reads {
		if v, err := c.slot(ps, owner, slot, s.Writes[slot] > 0); v != nil || err != nil {
			return v, err
		}
	}
	for _, m := range []map[common.Hash]uint64{s.Writes, s.TransientReads, s.TransientWrites} {
		for slot := range m {
			written := s.Writes[slot] > 0 || s.TransientWrites[slot] > 0
			if v, err := c.slot(ps, owner, slot, written); v != nil || err != nil {
				return v, err
			}
		}
	}
	return nil, nil
}

func (c *ruleCheck) isEntity(a common.Address) bool {
	return a == c.op.Sender || (c.op.Factory != nil && a == *c.op.Factory) || (c.op.Paymaster != nil && a == *c.op.Paymaster)
}

// slot decides one slot of owner's storage (not the sender's) that the
// phase's entity read or wrote.
func (c *ruleCheck) slot(ps *phaseState, owner common.Address, slot common.Hash, written bool) (*violation, error) {
	external := !c.isEntity(owner)
	if external && c.associated(slot, c.op.Sender) {
		if c.op.Factory == nil {
			return nil, nil // STO-021: the account exists
		}
		staked, err := c.staked(*c.op.Factory)
		if err != nil || staked {
			return nil, err // STO-022: the account is being deployed by a staked factory
		}
		return c.violate(ps, "STO-022", "used storage of %s associated with the sender it deploys, through an unstaked factory", owner.Hex()), nil
	}
	if ps.entity != entityAccount {
		staked, err := c.isStaked(ps)
		if err != nil {
			return nil, err
		}
		switch {
		case staked && owner == ps.address: // STO-031
			return nil, nil
		case staked && external && (c.associated(slot, ps.address) || !written): // STO-032, STO-033
			return nil, nil
		case owner == ps.address:
			return c.violate(ps, "STO-031", "used its own storage without being staked"), nil
		case !staked && external && written:
			return c.violate(ps, "STO-032", "wrote slot %s of %s without being staked", slot.Hex(), owner.Hex()), nil
		case !staked && external:
			return c.violate(ps, "STO-033", "read slot %s of %s without being staked", slot.Hex(), owner.Hex()), nil
		}
	}
	verb := "read"
	if written {
		verb = "wrote"
	}
	return c.violate(ps, "STO-021", "%s slot %s of %s, which is neither the account's storage nor associated with it", verb, slot.Hex(), owner.Hex()), nil
}

// stakeInfo reads an entity's stake from the EntryPoint (getDepositInfo).
func (s *simulator) stakeInfo(ctx context.Context, entity common.Address) (stake *big.Int, unstakeDelay uint32, staked bool, err error) {
	data, err := entryPointABI.Pack("getDepositInfo", entity)
	if err != nil {
		return nil, 0, false, err
	}
	var out hexutil.Bytes
	if err := s.node.Call(ctx, &out, "eth_call", map[string]any{"to": s.entryPoint, "data": hexutil.Bytes(data)}, "latest"); err != nil {
		return nil, 0, false, err
	}
	vals, err := entryPointABI.Unpack("getDepositInfo", out)
	if err != nil || len(vals) != 1 {
		return nil, 0, false, fmt.Errorf("bundler: getDepositInfo answer: %v", err)
	}
	var info struct {
		Deposit         *big.Int
		Staked          bool
		Stake           *big.Int
		UnstakeDelaySec uint32
		WithdrawTime    *big.Int
	}
	if err := convert(vals[0], &info); err != nil {
		return nil, 0, false, err
	}
	return info.Stake, info.UnstakeDelaySec, info.Staked, nil
}
