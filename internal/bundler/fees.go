package bundler

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/latchkit/latch/internal/jsonrpc"
)

// Defaults of SponsorLimits and SponsorConfig. A LatchSmartAccount's
// first operation (its deployment) validates in about 650,000 gas. The
// call cap bounds the EntryPoint's 10% charge on unused call gas, which is
// paid to whoever bundles the operation: what a self-bundling holder of an
// approval can gain beyond its gas (docs/smart-accounts.md).
const (
	DefaultSponsorMaxVerificationGas    = 2_000_000
	DefaultSponsorMaxCallGas            = 500_000
	DefaultSponsorMaxPreVerificationGas = 500_000
	// DefaultBaseFeeMultiplierPercent: maxFeePerGas may be up to three
	// times the current base fee (plus the priority fee cap). viem's
	// bundler client offers 2 × (1.2 × base fee + tip), read a block or two
	// before the approval while the base fee may fall 12.5% a block; the
	// effective price stays bounded by base fee + the priority fee cap.
	DefaultBaseFeeMultiplierPercent = 300
	// tipMargin: maxPriorityFeePerGas may be up to this many times the
	// network's suggestion, which moves between a wallet's reading and the
	// approval.
	tipMargin = 2
	// preVerificationSlackPercent: preVerificationGas may exceed what latchd
	// computes by this much (issue 33); more is paid to the bundler, not
	// spent on the operation.
	preVerificationSlackPercent = 10
)

// DefaultSponsorMaxPriorityFee is the ceiling of a sponsored operation's
// maxPriorityFeePerGas, whatever the network suggests: 10 gwei.
var DefaultSponsorMaxPriorityFee = big.NewInt(10_000_000_000)

// SponsorLimits bound what the paymaster approves on one network; zero
// fields take the defaults.
type SponsorLimits struct {
	MaxVerificationGas    uint64
	MaxCallGas            uint64
	MaxPreVerificationGas uint64
	// MaxPriorityFee is the ceiling of maxPriorityFeePerGas, in wei.
	MaxPriorityFee *big.Int
	// DailyBudget bounds what every project's sponsored operations on the
	// network may cost together per UTC day, in wei; nil: no bound but the
	// projects' own.
	DailyBudget *big.Int
	// Symbol is the native coin's symbol, for messages ("ETH").
	Symbol string
}

func (l *SponsorLimits) withDefaults() {
	if l.MaxVerificationGas == 0 {
		l.MaxVerificationGas = DefaultSponsorMaxVerificationGas
	}
	if l.MaxCallGas == 0 {
		l.MaxCallGas = DefaultSponsorMaxCallGas
	}
	if l.MaxPreVerificationGas == 0 {
		l.MaxPreVerificationGas = DefaultSponsorMaxPreVerificationGas
	}
	if l.MaxPriorityFee == nil {
		l.MaxPriorityFee = new(big.Int).Set(DefaultSponsorMaxPriorityFee)
	}
	if l.Symbol == "" {
		l.Symbol = "ETH"
	}
}

// boundError is a refusal for crossing a bound: ERC-7769's paymaster
// rejection code, a message naming the bound, and data with the bound's
// field, its limit and the operation's value.
func boundError(field string, limit, value *big.Int, format string, args ...any) *jsonrpc.Error {
	data, _ := json.Marshal(map[string]string{"bound": field, "limit": hexutil.EncodeBig(limit), "value": hexutil.EncodeBig(value)})
	return &jsonrpc.Error{Code: CodePaymasterRejected, Message: fmt.Sprintf(format, args...), Data: data}
}

// checkSponsoredGas refuses gas limits above the network's caps or the
// paymaster's own, and a preVerificationGas more than 10% away from what
// latchd computes for op (which must carry its final paymaster fields).
func (n *netState) checkSponsoredGas(op *UserOperation) *jsonrpc.Error {
	l := n.Sponsor
	u := func(v uint64) *big.Int { return new(big.Int).SetUint64(v) }
	for _, g := range []struct {
		field      string
		value, max uint64
		whose      string
	}{
		{"verificationGasLimit", op.VerificationGasLimit, l.MaxVerificationGas, "this paymaster sponsors on " + n.Network},
		{"callGasLimit", op.CallGasLimit, l.MaxCallGas, "this paymaster sponsors on " + n.Network},
		{"preVerificationGas", op.PreVerificationGas, l.MaxPreVerificationGas, "this paymaster sponsors on " + n.Network},
		{"paymasterVerificationGasLimit", op.PaymasterVerificationGasLimit, paymasterVerificationGas, "the paymaster's validation needs"},
		{"paymasterPostOpGasLimit", op.PaymasterPostOpGasLimit, paymasterPostOpGas, "the paymaster's postOp needs"},
	} {
		if g.value > g.max {
			return boundError(g.field, u(g.max), u(g.value), "%s %d is above the %d %s", g.field, g.value, g.max, g.whose)
		}
	}
	latchd := estimatedPreVerificationGas(op)
	// latchd is 1,000 over the need at any preVerificationGas's encoding:
	// the need is computed only for a value below it.
	if op.PreVerificationGas < latchd {
		if need := requiredPreVerificationGas(asSent(op)); op.PreVerificationGas < need {
			return boundError("preVerificationGas", u(need), u(op.PreVerificationGas), "preVerificationGas %d is below the %d this operation needs (its calldata and the bundle's overheads)", op.PreVerificationGas, need)
		}
	}
	if most := latchd * (100 + preVerificationSlackPercent) / 100; op.PreVerificationGas > most {
		return boundError("preVerificationGas", u(most), u(op.PreVerificationGas), "preVerificationGas %d is more than %d%% above the %d latchd computes for this operation (at most %d)", op.PreVerificationGas, preVerificationSlackPercent, latchd, most)
	}
	return nil
}

// asSent is op with a signature of a real one's length when it has none
// yet (a paymaster approval comes before the owner signs).
func asSent(op *UserOperation) *UserOperation {
	if len(op.Signature) > 0 {
		return op
	}
	c := *op
	c.Signature = stubSignature
	return &c
}

// estimatedPreVerificationGas is the preVerificationGas latchd computes
// for op as it will be sent (eth_estimateUserOperationGas's answer): its
// calldata cost with a preVerificationGas of 2^20 (its own encoding's size
// barely depends on its value), plus 1,000 to spare.
func estimatedPreVerificationGas(op *UserOperation) uint64 {
	c := *asSent(op)
	c.PreVerificationGas = 1 << 20
	return requiredPreVerificationGas(&c) + 1_000
}

// feeView is what the network charges now: the latest block's base fee
// and the node's suggested priority fee.
type feeView struct {
	baseFee, tip *big.Int
}

// batchNode is a Node that takes JSON-RPC batches (internal/evm.Client).
type batchNode interface {
	Batch(ctx context.Context, elems []rpc.BatchElem) error
}

// feeQuoteTTL: how long the network's fees are reused between
// approvals. The base fee moves at most 12.5% a block, well inside the
// multiplier's margin.
const feeQuoteTTL = time.Second

// feeCache holds a network's last fees read (base fee and suggested tip).
type feeCache struct {
	mu           sync.Mutex
	at           time.Time
	baseFee, tip *big.Int
}

func (c *feeCache) get() (baseFee, tip *big.Int, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.baseFee, c.tip, c.baseFee != nil && time.Since(c.at) < feeQuoteTTL
}

func (c *feeCache) set(baseFee, tip *big.Int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at, c.baseFee, c.tip = time.Now(), baseFee, tip
}

// readFees returns the network's fees, read again (in one batch when the
// node takes batches) once the cached ones are older than feeQuoteTTL.
func (n *netState) readFees(ctx context.Context) (feeView, error) {
	if baseFee, tip, ok := n.fees.get(); ok {
		return feeView{baseFee, tip}, nil
	}
	var head struct {
		BaseFee *hexutil.Big `json:"baseFeePerGas"`
	}
	var tip hexutil.Big
	elems := []rpc.BatchElem{
		{Method: "eth_getBlockByNumber", Args: []any{"latest", false}, Result: &head},
		{Method: "eth_maxPriorityFeePerGas", Result: &tip},
	}
	if b, ok := n.Node.(batchNode); ok {
		if err := b.Batch(ctx, elems); err != nil {
			return feeView{}, err
		}
	} else {
		for i := range elems {
			elems[i].Error = n.Node.Call(ctx, elems[i].Result, elems[i].Method, elems[i].Args...)
		}
	}
	for _, e := range elems {
		if e.Error != nil {
			return feeView{}, fmt.Errorf("%s: %w", e.Method, e.Error)
		}
	}
	v := feeView{baseFee: new(big.Int), tip: tip.ToInt()}
	if head.BaseFee != nil {
		v.baseFee = head.BaseFee.ToInt() // else a chain without EIP-1559
	}
	n.fees.set(v.baseFee, v.tip)
	return v, nil
}

// checkSponsoredFees refuses fees above what the network charges now: a
// priority fee above tipMargin times the node's suggestion (at least
// MinPriorityFee, at most the network's MaxPriorityFee), and a fee cap
// above the base fee times the multiplier plus that priority cap. Fees so
// bounded pay the bundler about what its transaction costs, so an
// approval cannot be turned into a payment to whoever bundles it.
func (n *netState) checkSponsoredFees(op *UserOperation, v feeView) *jsonrpc.Error {
	cfg := n.svc.cfg
	suggested := v.tip
	if suggested.Cmp(cfg.MinPriorityFee) < 0 {
		suggested = cfg.MinPriorityFee
	}
	tipCap := new(big.Int).Mul(suggested, big.NewInt(tipMargin))
	if tipCap.Cmp(n.Sponsor.MaxPriorityFee) > 0 {
		tipCap = n.Sponsor.MaxPriorityFee
	}
	if op.MaxPriorityFeePerGas.Cmp(tipCap) > 0 {
		return boundError("maxPriorityFeePerGas", tipCap, op.MaxPriorityFeePerGas,
			"maxPriorityFeePerGas %s is above the %s wei this paymaster sponsors on %s now (%d times the network's suggested %s wei, at most %s)",
			op.MaxPriorityFeePerGas, tipCap, n.Network, tipMargin, v.tip, n.Sponsor.MaxPriorityFee)
	}
	feeCap := new(big.Int).Mul(v.baseFee, new(big.Int).SetUint64(cfg.Sponsorship.BaseFeeMultiplierPercent))
	feeCap.Div(feeCap, big.NewInt(100)).Add(feeCap, tipCap)
	if op.MaxFeePerGas.Cmp(feeCap) > 0 {
		return boundError("maxFeePerGas", feeCap, op.MaxFeePerGas,
			"maxFeePerGas %s is above the %s wei this paymaster sponsors on %s now (%s times the base fee of %s wei, plus %s)",
			op.MaxFeePerGas, feeCap, n.Network, Multiplier(cfg.Sponsorship.BaseFeeMultiplierPercent), v.baseFee, tipCap)
	}
	return nil
}

// Multiplier shows a percentage as a multiplier: 200 → "2", 150 → "1.5".
func Multiplier(percent uint64) string {
	if percent%100 == 0 {
		return strconv.FormatUint(percent/100, 10)
	}
	return strings.TrimRight(fmt.Sprintf("%d.%02d", percent/100, percent%100), "0")
}
