// Package bundler is latchd's ERC-4337 v0.7 bundler and paymaster: the
// ERC-7769 methods (eth_sendUserOperation, eth_estimateUserOperationGas,
// eth_getUserOperationByHash, eth_getUserOperationReceipt,
// eth_supportedEntryPoints; eth_chainId is the node's, through the proxy) and
// the ERC-7677 paymaster methods
// (pm_getPaymasterStubData, pm_getPaymasterData), served on the RPC proxy
// endpoint of each network with a bundler (rpc.go).
//
// It is a single-operator bundler: operations are validated by simulating
// them through the network's EntryPoint (an eth_call with the
// LatchEntryPointSimulations code put at the EntryPoint's address), kept in
// a mempool in latchd's database, and bundled into handleOps transactions
// from the bundler's key (bundle.go). On networks whose node can trace
// (debug_traceCall with erc7562Tracer), each simulation is traced and
// ERC-7562's validation rules are checked on it (erc7562.go), so an
// operation whose validation could pass in simulation and fail on chain is
// refused; entities are rated by ERC-7562's reputation (reputation.go); and
// every operation is validated again just before it is bundled, so one
// that would now fail is dropped before the bundler's key pays for it.
// Below a floor of the bundler key's balance, new operations are refused
// (funds.go).
package bundler

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/jsonrpc"
	"github.com/latchkit/latch/internal/metrics"
)

// Defaults of Config.
const (
	DefaultMaxVerificationGas = 5_000_000
	DefaultMaxOperationGas    = 10_000_000
	DefaultMaxBundleOps       = 32
	// DefaultMaxPendingPerSender is how many operations a sender may have
	// in the mempool at once: ERC-7562's limit for an unstaked sender.
	DefaultMaxPendingPerSender = 4
	// DefaultMaxBundleGas keeps a bundle well inside a block (30M and more on
	// the networks latchd knows, 36M on the dev chains).
	DefaultMaxBundleGas = 15_000_000
	// validityMargin: an operation whose window ends sooner is refused, since
	// it could expire before its bundle is mined (ERC-4337 suggests 30 s).
	validityMargin = 30 * time.Second
	// replacementBump is the percentage both fees must rise by to replace a
	// pending operation (ERC-4337's mempool rule, as for transactions).
	replacementBump = 10
)

// DefaultApprovalLifetime is how long a paymaster approval stays valid:
// long enough to sign and send, short enough that approvals asked for
// someone else's account do not hold its budget for long.
const DefaultApprovalLifetime = 120 * time.Second

// DefaultMaxSponsoredCost is 0.05 ether: two million gas at 25 gwei.
var DefaultMaxSponsoredCost = big.NewInt(5e16)

// NetworkConfig is one network with a bundler.
type NetworkConfig struct {
	Network    string // CAIP-2, e.g. eip155:31337
	ChainID    uint64
	EntryPoint common.Address
	// Factory is the smart account factory (LatchSmartAccountFactory) the
	// widget's accounts come from; reported, not enforced.
	Factory common.Address
	Node    Node
	// BundlerKey sends handleOps and receives the operations' fees.
	BundlerKey *ecdsa.PrivateKey
	// Paymaster is the LatchVerifyingPaymaster whose signer is PaymasterKey;
	// zero: no paymaster on this network.
	Paymaster    common.Address
	PaymasterKey *ecdsa.PrivateKey
	// MinBalance is the bundler key's balance (wei) below which new
	// operations are refused; nil: enough for one full bundle
	// (Config.MaxBundleGas) at twice the current base fee plus the minimum tip.
	MinBalance *big.Int
	// Sponsor bounds what the paymaster approves on this network (fees.go).
	Sponsor SponsorLimits
}

// Config configures a Service. Store and Networks are required.
type Config struct {
	Networks []NetworkConfig
	Store    *Store
	// MinPriorityFee is the least maxPriorityFeePerGas accepted (the bundle
	// transaction's tip comes from it); default 1 wei.
	MinPriorityFee *big.Int
	// MaxVerificationGas bounds verificationGasLimit; MaxOperationGas the
	// sum of an operation's gas limits.
	MaxVerificationGas uint64
	MaxOperationGas    uint64
	// MaxBundleOps and MaxBundleGas bound one handleOps transaction: its
	// operations and the sum of their gas limits (its gas limit).
	MaxBundleOps int
	MaxBundleGas uint64
	// MaxPendingPerSender bounds a sender's operations in the mempool
	// (pending or in a bundle being mined); default
	// DefaultMaxPendingPerSender. An operation whose nonce follows a
	// pending one is validated as if that one had been included.
	MaxPendingPerSender int
	// DefaultPolicy is the sponsorship policy of projects without one stored.
	DefaultPolicy Policy
	// MaxSponsoredCost bounds what one sponsored operation may cost the
	// paymaster (its gas limits at its maxFeePerGas), so an approval cannot
	// be turned into a large payment to the block's producer; default
	// DefaultMaxSponsoredCost.
	MaxSponsoredCost *big.Int
	// ApprovalLifetime is how long a paymaster approval (pm_getPaymasterData)
	// stays valid, and so how long an unused one holds budget; default
	// DefaultApprovalLifetime.
	ApprovalLifetime time.Duration
	// Untraced is what happens on a network whose node cannot trace, where
	// ERC-7562's rules cannot be checked; default UntracedAccept.
	Untraced UntracedPolicy
	// MinStake is ERC-7562's MIN_STAKE_VALUE: the stake (wei, with an
	// unstake delay of a day) that makes a factory or paymaster staked;
	// default DefaultMinStake.
	MinStake *big.Int
	// Metrics, when set, receives the bundler's gauges.
	Metrics *metrics.Registry
	// Sponsorship configures the paymaster's fee bounds and sessions (budget.go).
	Sponsorship SponsorConfig
	Now         func() time.Time
	Logger      *slog.Logger
}

// Service is the bundler of every configured network; safe for concurrent use.
type Service struct {
	cfg  Config
	nets map[string]*netState

	runOnce sync.Once
	stop    context.CancelFunc
	wg      sync.WaitGroup
}

type netState struct {
	NetworkConfig
	sim     *simulator
	bundler common.Address
	wake    chan struct{}
	svc     *Service
	leader  *leader
	// singles: the last bundle reverted, bundle one operation at a time
	// until the queue is through (the loop's goroutine only).
	singles bool
	tracing tracing
	funds   funds
	// fees caches the network's fees for the paymaster's bounds (fees.go).
	fees feeCache
}

// New returns a Service; Run starts its bundling loops.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, errors.New("bundler: a store is required")
	}
	if cfg.MinPriorityFee == nil {
		cfg.MinPriorityFee = big.NewInt(1)
	}
	if cfg.MaxVerificationGas == 0 {
		cfg.MaxVerificationGas = DefaultMaxVerificationGas
	}
	if cfg.MaxOperationGas == 0 {
		cfg.MaxOperationGas = DefaultMaxOperationGas
	}
	if cfg.MaxBundleOps == 0 {
		cfg.MaxBundleOps = DefaultMaxBundleOps
	}
	if cfg.MaxPendingPerSender == 0 {
		cfg.MaxPendingPerSender = DefaultMaxPendingPerSender
	}
	if cfg.MaxPendingPerSender < 0 {
		return nil, fmt.Errorf("bundler: MaxPendingPerSender must not be negative")
	}
	if cfg.MaxSponsoredCost == nil {
		cfg.MaxSponsoredCost = new(big.Int).Set(DefaultMaxSponsoredCost)
	}
	if cfg.MaxBundleGas == 0 {
		cfg.MaxBundleGas = DefaultMaxBundleGas
	}
	if cfg.MaxOperationGas+bundleOverheadGas > cfg.MaxBundleGas {
		return nil, fmt.Errorf("bundler: the largest operation (%d gas) does not fit a bundle (%d gas)", cfg.MaxOperationGas, cfg.MaxBundleGas)
	}
	if cfg.ApprovalLifetime == 0 {
		cfg.ApprovalLifetime = DefaultApprovalLifetime
	}
	if cfg.Sponsorship.BaseFeeMultiplierPercent == 0 {
		cfg.Sponsorship.BaseFeeMultiplierPercent = DefaultBaseFeeMultiplierPercent
	}
	switch cfg.Untraced {
	case "":
		cfg.Untraced = UntracedAccept
	case UntracedAccept, UntracedRefuse:
	default:
		return nil, fmt.Errorf("bundler: Untraced must be %q or %q, not %q", UntracedAccept, UntracedRefuse, cfg.Untraced)
	}
	if cfg.MinStake == nil {
		cfg.MinStake = new(big.Int).Set(DefaultMinStake)
	}
	if cfg.MinStake.Sign() < 0 {
		return nil, errors.New("bundler: MinStake must not be negative")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	s := &Service{cfg: cfg, nets: map[string]*netState{}}
	for _, n := range cfg.Networks {
		if n.Node == nil || n.BundlerKey == nil || n.ChainID == 0 || n.EntryPoint == (common.Address{}) {
			return nil, fmt.Errorf("bundler: %s: node, chain id, EntryPoint and bundler key are required", n.Network)
		}
		if n.MinBalance != nil && n.MinBalance.Sign() < 0 {
			return nil, fmt.Errorf("bundler: %s: MinBalance must not be negative", n.Network)
		}
		if (n.Paymaster == common.Address{}) != (n.PaymasterKey == nil) {
			return nil, fmt.Errorf("bundler: %s: a paymaster needs its signer key and a key its paymaster", n.Network)
		}
		if _, dup := s.nets[n.Network]; dup {
			return nil, fmt.Errorf("bundler: %s configured twice", n.Network)
		}
		n.Sponsor.withDefaults()
		from := crypto.PubkeyToAddress(n.BundlerKey.PublicKey)
		s.nets[n.Network] = &netState{
			NetworkConfig: n,
			sim:           &simulator{node: n.Node, entryPoint: n.EntryPoint, from: from},
			bundler:       from,
			wake:          make(chan struct{}, 1),
			svc:           s,
			leader:        &leader{db: cfg.Store.db, key: "latch-bundler:" + n.Network},
		}
	}
	if cfg.Metrics != nil {
		cfg.Metrics.Gauge("latch_bundler_key_balance_low", "Networks whose bundler key holds less than its floor (--bundler-min-balance): new user operations are refused there while above 0.", s.lowFunds)
	}
	return s, nil
}

// Networks lists the networks with a bundler.
func (s *Service) Networks() []string {
	out := make([]string, 0, len(s.nets))
	for id := range s.nets {
		out = append(out, id)
	}
	return out
}

// Run starts one bundling loop per network; Close stops them.
func (s *Service) Run(ctx context.Context) {
	s.runOnce.Do(func() {
		ctx, s.stop = context.WithCancel(ctx)
		for _, n := range s.nets {
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				n.loop(ctx)
			}()
			if n.Paymaster != (common.Address{}) {
				s.wg.Add(1)
				go func() {
					defer s.wg.Done()
					n.watchSponsored(ctx)
				}()
			}
		}
	})
}

// Close stops the loops and waits for them.
func (s *Service) Close() {
	if s.stop != nil {
		s.stop()
	}
	s.wg.Wait()
	for _, n := range s.nets {
		n.leader.release()
	}
}

func (s *Service) net(network string) (*netState, *jsonrpc.Error) {
	n := s.nets[network]
	if n == nil {
		return nil, rpcError(jsonrpc.CodeMethodNotFound, "no bundler on %s", network)
	}
	return n, nil
}

func (n *netState) checkEntryPoint(ep common.Address) *jsonrpc.Error {
	if ep != n.EntryPoint {
		return rpcError(CodeInvalidFields, "EntryPoint %s is not supported; this bundler supports %s", ep.Hex(), n.EntryPoint.Hex())
	}
	return nil
}

// SendUserOperation validates op and adds it to the mempool, replacing a
// pending operation of the same sender and nonce when both its fees are at
// least 10% higher. An operation whose nonce follows the sender's pending
// ones is validated as if they had been included (priorOps). It returns the
// userOpHash. A refused operation leaves nothing stored.
func (s *Service) SendUserOperation(ctx context.Context, projectID, network string, op *UserOperation, entryPoint common.Address) (common.Hash, *jsonrpc.Error) {
	n, rerr := s.net(network)
	if rerr != nil {
		return common.Hash{}, rerr
	}
	if rerr := n.checkEntryPoint(entryPoint); rerr != nil {
		return common.Hash{}, rerr
	}
	if rerr := n.checkFunds(ctx); rerr != nil {
		return common.Hash{}, rerr
	}
	headNumber, rerr := n.checkStatic(ctx, op)
	if rerr != nil {
		return common.Hash{}, rerr
	}
	hash := op.Hash(n.EntryPoint, n.ChainID)
	var replaces *common.Hash
	lives, err := s.cfg.Store.LiveBySender(ctx, network, op.Sender)
	if err != nil {
		s.cfg.Logger.ErrorContext(ctx, "bundler: read mempool", "err", err)
		return common.Hash{}, errInternal
	}
	var live *Record
	for _, r := range lives {
		if r.Op.Nonce.Cmp(op.Nonce) == 0 {
			live = r
		}
	}
	if live != nil {
		switch {
		case live.Hash == hash:
			return common.Hash{}, rpcError(CodeInvalidFields, "UserOperation %s is already in the mempool", hash.Hex())
		case live.Status != StatusPending:
			return common.Hash{}, rpcError(CodeInvalidFields, "an operation of %s with nonce %s is already being bundled", op.Sender.Hex(), op.Nonce)
		case !bumped(op.MaxFeePerGas, live.Op.MaxFeePerGas) || !bumped(op.MaxPriorityFeePerGas, live.Op.MaxPriorityFeePerGas):
			return common.Hash{}, rpcError(CodeInvalidFields, "replacement underpriced: an operation of %s with nonce %s is pending; raise maxFeePerGas and maxPriorityFeePerGas by at least %d%% to replace it", op.Sender.Hex(), op.Nonce, replacementBump)
		}
		replaces = &live.Hash
	} else if len(lives) >= s.cfg.MaxPendingPerSender {
		return common.Hash{}, tooManyPending(op.Sender, s.cfg.MaxPendingPerSender)
	}
	if rerr := n.checkReputation(ctx, op, replaces != nil); rerr != nil {
		return common.Hash{}, rerr
	}
	prior, rerr := n.priorOps(ctx, op, lives)
	if rerr != nil {
		return common.Hash{}, rerr
	}
	sim, rerr := n.validate(ctx, op, prior)
	if rerr != nil {
		return common.Hash{}, rerr
	}
	now := s.cfg.Now()
	rec := &Record{Hash: hash, Network: network, EntryPoint: n.EntryPoint, ProjectID: projectID, Op: op, SeenBlock: headNumber, CreatedAt: now,
		validation: sim.res, static: sim.static}
	if err := s.cfg.Store.Add(ctx, rec, replaces, s.cfg.MaxPendingPerSender, addrsOf(n.rated(op))); err != nil {
		if errors.Is(err, ErrLive) {
			return common.Hash{}, rpcError(CodeInvalidFields, "an operation of %s with nonce %s is already in the mempool", op.Sender.Hex(), op.Nonce)
		}
		if errors.Is(err, ErrTooManyPending) {
			return common.Hash{}, tooManyPending(op.Sender, s.cfg.MaxPendingPerSender)
		}
		s.cfg.Logger.ErrorContext(ctx, "bundler: store operation", "err", err)
		return common.Hash{}, errInternal
	}
	select {
	case n.wake <- struct{}{}:
	default:
	}
	return hash, nil
}

func tooManyPending(sender common.Address, max int) *jsonrpc.Error {
	return rpcError(CodeThrottled, "%s has %d operations in the mempool, this bundler's limit per sender; send the next once one is included", sender.Hex(), max)
}

// priorOps works out what op's simulation must take into account of the
// sender's live operations (lives, in nonce order). An operation whose
// sequence number is the chain's next needs nothing. One further on is
// accepted only when live operations fill every sequence number of its
// key from the chain's next up to it (a gap is refused with AA25, as the
// EntryPoint would); it is then simulated with the EntryPoint's nonce
// slot set to its own sequence number and, when one of those operations
// deploys the sender, with that deployment run first.
func (n *netState) priorOps(ctx context.Context, op *UserOperation, lives []*Record) (after, *jsonrpc.Error) {
	key, seq := nonceKey(op.Nonce), nonceSeq(op.Nonce)
	held := map[uint64]*Record{}
	for _, r := range lives {
		if nonceKey(r.Op.Nonce).Cmp(key) == 0 && nonceSeq(r.Op.Nonce).Cmp(seq) < 0 {
			held[nonceSeq(r.Op.Nonce).Uint64()] = r
		}
	}
	if len(held) == 0 {
		return after{}, nil // the chain decides (AA25 for a nonce that is not its next)
	}
	next, err := n.sim.chainNonce(ctx, op.Sender, key)
	if err != nil {
		n.svc.cfg.Logger.WarnContext(ctx, "bundler: read nonce", "network", n.Network, "err", err)
		return after{}, rpcError(jsonrpc.CodeInternal, "The network's node did not answer")
	}
	first := nonceSeq(next).Uint64()
	if seq.Uint64() <= first {
		return after{}, nil // at or below the chain's next: nothing pending precedes it on chain
	}
	var deploy []byte
	for s := first; s < seq.Uint64(); s++ {
		r := held[s]
		if r == nil {
			return after{}, rpcError(CodeSimulateValidation, "AA25 invalid account nonce: the next nonce of %s is %s and the mempool holds none with sequence number %d before %s; send the missing ones first",
				op.Sender.Hex(), new(big.Int).Or(new(big.Int).Lsh(key, 64), new(big.Int).SetUint64(first)), s, op.Nonce)
		}
		if r.Op.Factory != nil {
			deploy = r.Op.InitCode()
		}
	}
	if deploy != nil && op.Factory != nil {
		return after{}, rpcError(CodeInvalidFields, "factory: an earlier operation of %s in the mempool deploys it; leave factory and factoryData out", op.Sender.Hex())
	}
	return after{NextSeq: seq, DeployCode: deploy}, nil
}

// bumped reports whether next is at least replacementBump percent above prev.
func bumped(next, prev *big.Int) bool {
	min := new(big.Int).Mul(prev, big.NewInt(100+replacementBump))
	return new(big.Int).Mul(next, big.NewInt(100)).Cmp(min) >= 0
}

// checkStatic applies the rules that need no simulation: gas limits, fees
// against the minimum tip and the current base fee, and preVerificationGas
// against the operation's calldata cost. It returns the chain's head block.
func (n *netState) checkStatic(ctx context.Context, op *UserOperation) (uint64, *jsonrpc.Error) {
	cfg := n.svc.cfg
	if op.VerificationGasLimit > cfg.MaxVerificationGas {
		return 0, rpcError(CodeInvalidFields, "verificationGasLimit %d is above this bundler's limit of %d", op.VerificationGasLimit, cfg.MaxVerificationGas)
	}
	total := op.VerificationGasLimit + op.CallGasLimit + op.PreVerificationGas + op.PaymasterVerificationGasLimit + op.PaymasterPostOpGasLimit
	if total > cfg.MaxOperationGas || total < op.VerificationGasLimit {
		return 0, rpcError(CodeInvalidFields, "the operation's gas limits add up to more than this bundler's limit of %d", cfg.MaxOperationGas)
	}
	if need := requiredPreVerificationGas(op); op.PreVerificationGas < need {
		return 0, rpcError(CodeInvalidFields, "preVerificationGas %d is too low: at least %d", op.PreVerificationGas, need)
	}
	if op.MaxPriorityFeePerGas.Cmp(cfg.MinPriorityFee) < 0 {
		return 0, rpcError(CodeInvalidFields, "maxPriorityFeePerGas %s is below this bundler's minimum of %s wei", op.MaxPriorityFeePerGas, cfg.MinPriorityFee)
	}
	head, err := n.head(ctx)
	if err != nil {
		cfg.Logger.WarnContext(ctx, "bundler: read base fee", "network", n.Network, "err", err)
		return 0, rpcError(jsonrpc.CodeInternal, "The network's node did not answer")
	}
	if op.MaxFeePerGas.Cmp(head.baseFee) < 0 {
		return 0, rpcError(CodeInvalidFields, "maxFeePerGas %s is below the current base fee of %s wei", op.MaxFeePerGas, head.baseFee)
	}
	return head.number, nil
}

func hexData(b []byte) []byte {
	return []byte(`"` + hexutil.Encode(b) + `"`)
}

func (n *netState) baseFee(ctx context.Context) (*big.Int, error) {
	h, err := n.head(ctx)
	return h.baseFee, err
}

// chainHead is what the bundler reads of the latest block.
type chainHead struct {
	baseFee *big.Int // zero on a chain without EIP-1559
	number  uint64
	time    time.Time
}

func (n *netState) head(ctx context.Context) (chainHead, error) {
	var head struct {
		BaseFee *hexutil.Big   `json:"baseFeePerGas"`
		Number  hexutil.Uint64 `json:"number"`
		Time    hexutil.Uint64 `json:"timestamp"`
	}
	if err := n.Node.Call(ctx, &head, "eth_getBlockByNumber", "latest", false); err != nil {
		return chainHead{}, err
	}
	h := chainHead{baseFee: new(big.Int), number: uint64(head.Number), time: time.Unix(int64(head.Time), 0)}
	if head.BaseFee != nil {
		h.baseFee = head.BaseFee.ToInt()
	}
	return h, nil
}

// Overheads of preVerificationGas: the bundle transaction's base cost (a
// bundle of one pays it alone) and the EntryPoint's per-operation work
// outside the gas it measures.
const (
	bundleBaseGas   = 21_000
	perOperationGas = 20_000
)

// requiredPreVerificationGas is the least preVerificationGas accepted: the
// overheads plus the operation's calldata at 4 gas a zero byte and 16 a
// non-zero one, counting the signature and paymasterData as non-zero, so a
// placeholder and the real signature cost the same.
func requiredPreVerificationGas(op *UserOperation) uint64 {
	c := op.Copy()
	c.Signature = ones(len(op.Signature))
	c.PaymasterData = ones(len(op.PaymasterData))
	enc, err := entryPointABI.Methods["handleOps"].Inputs.Pack([]PackedUserOperation{c.Pack()}, common.Address{})
	if err != nil {
		return bundleBaseGas + perOperationGas
	}
	var cost uint64
	for _, b := range enc {
		if b == 0 {
			cost += 4
		} else {
			cost += 16
		}
	}
	return bundleBaseGas + perOperationGas + cost
}

func ones(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 0xff
	}
	return b
}
