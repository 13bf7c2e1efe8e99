package bundler

import (
	"context"
	"errors"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/latchkit/latch/internal/jsonrpc"
)

// PaymasterStub is pm_getPaymasterStubData's answer (ERC-7677): data of
// the final data's shape, for gas estimation.
type PaymasterStub struct {
	Paymaster                     common.Address `json:"paymaster"`
	PaymasterData                 hexutil.Bytes  `json:"paymasterData"`
	PaymasterVerificationGasLimit hexutil.Uint64 `json:"paymasterVerificationGasLimit"`
	PaymasterPostOpGasLimit       hexutil.Uint64 `json:"paymasterPostOpGasLimit"`
	IsFinal                       bool           `json:"isFinal"`
}

// PaymasterApproval is pm_getPaymasterData's answer: the signed approval.
type PaymasterApproval struct {
	Paymaster                     common.Address `json:"paymaster"`
	PaymasterData                 hexutil.Bytes  `json:"paymasterData"`
	PaymasterVerificationGasLimit hexutil.Uint64 `json:"paymasterVerificationGasLimit"`
	PaymasterPostOpGasLimit       hexutil.Uint64 `json:"paymasterPostOpGasLimit"`
}

// ApprovalRequest is one pm_getPaymasterStubData or pm_getPaymasterData call.
type ApprovalRequest struct {
	ProjectID  string
	Network    string
	Op         *UserOperation
	EntryPoint common.Address
	ChainID    string // hex, as ERC-7677 passes it
	Context    SponsorContext
}

// policy is projectID's stored sponsorship policy, or the default; a
// stored policy without budgets of its own takes the default's.
func (s *Service) policy(ctx context.Context, projectID string) (Policy, error) {
	p, ok, err := s.cfg.Store.Policy(ctx, projectID)
	if err != nil || !ok {
		return s.cfg.DefaultPolicy, err
	}
	if p.DailyBudget == nil {
		p.DailyBudget = s.cfg.DefaultPolicy.DailyBudget
	}
	if p.AccountDailyBudget == nil {
		p.AccountDailyBudget = s.cfg.DefaultPolicy.AccountDailyBudget
	}
	return p, nil
}

// sponsorable checks everything that needs neither the chain nor the
// budgets: a paymaster on the network, the EntryPoint and chain id, the
// project's policy and its allowed contracts.
func (s *Service) sponsorable(ctx context.Context, req ApprovalRequest) (*netState, Policy, *jsonrpc.Error) {
	n, rerr := s.net(req.Network)
	if rerr != nil {
		return nil, Policy{}, rerr
	}
	if rerr := n.checkEntryPoint(req.EntryPoint); rerr != nil {
		return nil, Policy{}, rerr
	}
	if id, err := hexutil.DecodeUint64(req.ChainID); err != nil || id != n.ChainID {
		return nil, Policy{}, rpcError(CodeInvalidFields, "chainId %q is not this network's (%s)", req.ChainID, hexutil.EncodeUint64(n.ChainID))
	}
	if n.Paymaster == (common.Address{}) {
		return nil, Policy{}, rpcError(CodePaymasterRejected, "no paymaster on %s", req.Network)
	}
	p, err := s.policy(ctx, req.ProjectID)
	if err != nil {
		s.cfg.Logger.ErrorContext(ctx, "bundler: read sponsorship policy", "err", err)
		return nil, Policy{}, errInternal
	}
	if !p.Enabled {
		return nil, Policy{}, rpcError(CodePaymasterRejected, "This project does not sponsor operations")
	}
	if len(p.AllowedContracts) > 0 {
		targets, ok := callTargets(req.Op.CallData)
		if !ok {
			return nil, Policy{}, rpcError(CodePaymasterRejected, "Only execute and executeBatch calls can be sponsored for this project")
		}
		for _, t := range targets {
			if !contains(p.AllowedContracts, t) {
				return nil, Policy{}, rpcError(CodePaymasterRejected, "This project does not sponsor calls to %s", t.Hex())
			}
		}
	}
	return n, p, nil
}

func contains(list []common.Address, a common.Address) bool {
	for _, x := range list {
		if x == a {
			return true
		}
	}
	return false
}

// callTargets are the contracts a LatchSmartAccount call reaches: execute's
// dest or executeBatch's dests; none for an empty call (deployment only).
// ok is false for any other call, which cannot be checked.
func callTargets(callData []byte) ([]common.Address, bool) {
	if len(callData) == 0 {
		return nil, true
	}
	if len(callData) < 4 {
		return nil, false
	}
	m, err := accountABI.MethodById(callData[:4])
	if err != nil {
		return nil, false
	}
	vals, err := m.Inputs.Unpack(callData[4:])
	if err != nil {
		return nil, false
	}
	switch m.Name {
	case "execute":
		return []common.Address{vals[0].(common.Address)}, true
	case "executeBatch":
		return vals[0].([]common.Address), true
	}
	return nil, false
}

// PaymasterStubData answers pm_getPaymasterStubData without an ERC-7677
// context; see Stub.
func (s *Service) PaymasterStubData(ctx context.Context, projectID, network string, op *UserOperation, entryPoint common.Address, chainID string) (*PaymasterStub, *jsonrpc.Error) {
	return s.Stub(ctx, ApprovalRequest{ProjectID: projectID, Network: network, Op: op, EntryPoint: entryPoint, ChainID: chainID})
}

// Stub answers pm_getPaymasterStubData: the paymaster, its gas limits and
// placeholder data, when the project's policy would sponsor the operation,
// it has a balance on the network and the operation's fees (when set) are
// within the bounds. Gas limits are checked at approval, once estimated.
func (s *Service) Stub(ctx context.Context, req ApprovalRequest) (*PaymasterStub, *jsonrpc.Error) {
	n, p, rerr := s.sponsorable(ctx, req)
	if rerr != nil {
		return nil, rerr
	}
	if p.RequireSession {
		if _, rerr := s.sessionUser(ctx, n, req.ProjectID, req.Op, req.Context, false); rerr != nil {
			return nil, rerr
		}
	}
	left, err := s.cfg.Store.Left(ctx, req.ProjectID, req.Network)
	if err != nil {
		s.cfg.Logger.ErrorContext(ctx, "bundler: read sponsorship balance", "err", err)
		return nil, errInternal
	}
	if left.Sign() <= 0 {
		return nil, n.budgetError(&BudgetError{Bound: BoundBalance, Limit: left, Used: new(big.Int), Asked: new(big.Int)})
	}
	if req.Op.MaxFeePerGas.Sign() > 0 {
		v, err := n.readFees(ctx)
		if err != nil {
			return nil, n.nodeError(ctx, err)
		}
		if rerr := n.checkSponsoredFees(req.Op, v); rerr != nil {
			return nil, rerr
		}
	}
	validUntil := uint64(s.cfg.Now().Add(s.cfg.ApprovalLifetime).Unix())
	data, err := PaymasterData(req.Op, n.ChainID, validUntil, 0, n.approvedBundler(), nil)
	if err != nil {
		return nil, errInternal
	}
	return &PaymasterStub{
		Paymaster: n.Paymaster, PaymasterData: data,
		PaymasterVerificationGasLimit: paymasterVerificationGas, PaymasterPostOpGasLimit: paymasterPostOpGas,
	}, nil
}

// PaymasterData answers pm_getPaymasterData without an ERC-7677 context;
// see Approve.
func (s *Service) PaymasterData(ctx context.Context, projectID, network string, op *UserOperation, entryPoint common.Address, chainID string) (*PaymasterApproval, *jsonrpc.Error) {
	return s.Approve(ctx, ApprovalRequest{ProjectID: projectID, Network: network, Op: op, EntryPoint: entryPoint, ChainID: chainID})
}

// Approve answers pm_getPaymasterData: the paymaster signer's approval of
// the operation (with its final gas limits and fees) for
// Config.ApprovalLifetime, in a bundle of this bundler's key only (unless
// SponsorConfig.AnyBundler), when it keeps every bound: the policy (and the
// visitor's session when it asks for one), the network's gas caps, a
// preVerificationGas within 10% of latchd's, fees near the network's
// current ones, a nonce among the sender's next few (once it has approvals
// held: one more RPC call then), and the budgets, which the approval then
// holds its maximum cost of (Store.Reserve) until it is included or
// expires.
func (s *Service) Approve(ctx context.Context, req ApprovalRequest) (*PaymasterApproval, *jsonrpc.Error) {
	n, p, rerr := s.sponsorable(ctx, req)
	if rerr != nil {
		return nil, rerr
	}
	op := req.Op
	var userID string
	if p.RequireSession {
		if userID, rerr = s.sessionUser(ctx, n, req.ProjectID, op, req.Context, true); rerr != nil {
			return nil, rerr
		}
	}
	signed := op.Copy()
	pm := n.Paymaster
	signed.Paymaster = &pm
	if signed.PaymasterVerificationGasLimit == 0 {
		signed.PaymasterVerificationGasLimit = paymasterVerificationGas
	}
	if signed.PaymasterPostOpGasLimit == 0 {
		signed.PaymasterPostOpGasLimit = paymasterPostOpGas
	}
	signed.PaymasterData = make([]byte, PaymasterApprovalLength) // the final data's length, for preVerificationGas
	if rerr := n.checkSponsoredGas(signed); rerr != nil {
		return nil, rerr
	}
	cost := signed.RequiredPrefund()
	if cost.Cmp(s.cfg.MaxSponsoredCost) > 0 {
		return nil, boundError("prefund", s.cfg.MaxSponsoredCost, cost, "The operation's prefund (its gas limits at maxFeePerGas) is %s wei, more than the %s wei this paymaster sponsors: lower its gas limits or maxFeePerGas", cost, s.cfg.MaxSponsoredCost)
	}
	v, err := n.readFees(ctx)
	if err != nil {
		return nil, n.nodeError(ctx, err)
	}
	if rerr := n.checkSponsoredFees(signed, v); rerr != nil {
		return nil, rerr
	}
	now := s.cfg.Now()
	validUntil := now.Add(s.cfg.ApprovalLifetime)
	data, err := PaymasterData(signed, n.ChainID, uint64(validUntil.Unix()), 0, n.approvedBundler(), n.PaymasterKey)
	if err != nil {
		return nil, errInternal
	}
	signed.PaymasterData = data
	r := Reservation{
		ID: signed.Hash(n.EntryPoint, n.ChainID), ProjectID: req.ProjectID, Network: req.Network, Sender: op.Sender, Nonce: op.Nonce,
		Amount: cost, ValidUntil: validUntil.Truncate(time.Second), UserID: userID,
	}
	b := Budgets{Policy: p, NetworkDailyBudget: n.Sponsor.DailyBudget}
	err = s.cfg.Store.Reserve(ctx, r, b, now)
	if errors.Is(err, ErrNeedNonce) {
		// The account has approvals held: the chain's next nonce says
		// which still count, and bounds how far ahead this one may be.
		if r.NextNonce, err = n.sim.chainNonce(ctx, op.Sender, nonceKey(op.Nonce)); err != nil {
			return nil, n.nodeError(ctx, err)
		}
		if rerr := n.checkSponsoredNonce(op, r.NextNonce); rerr != nil {
			return nil, rerr
		}
		err = s.cfg.Store.Reserve(ctx, r, b, now)
	}
	var be *BudgetError
	if errors.As(err, &be) {
		return nil, n.budgetError(be)
	}
	if err != nil {
		s.cfg.Logger.ErrorContext(ctx, "bundler: reserve sponsorship", "err", err)
		return nil, errInternal
	}
	return &PaymasterApproval{
		Paymaster: pm, PaymasterData: data,
		PaymasterVerificationGasLimit: hexutil.Uint64(signed.PaymasterVerificationGasLimit),
		PaymasterPostOpGasLimit:       hexutil.Uint64(signed.PaymasterPostOpGasLimit),
	}, nil
}

// approvedBundler is the bundler n's approvals are bound to: its own key's
// address, so that only latchd's bundles, whose beneficiary is latchd's,
// can use them; zero (any bundler) with SponsorConfig.AnyBundler.
func (n *netState) approvedBundler() common.Address {
	if n.svc.cfg.Sponsorship.AnyBundler {
		return common.Address{}
	}
	return n.bundler
}

// checkSponsoredNonce refuses a nonce that is not among the sender's next
// MaxPendingPerSender under its key (next is the chain's): the only
// approvals the sender could use soon, so approvals asked for other
// nonces cannot pile up against it.
func (n *netState) checkSponsoredNonce(op *UserOperation, next *big.Int) *jsonrpc.Error {
	seq, first := nonceSeq(op.Nonce), nonceSeq(next)
	last := new(big.Int).Add(first, big.NewInt(int64(n.svc.cfg.MaxPendingPerSender-1)))
	if seq.Cmp(first) < 0 || seq.Cmp(last) > 0 {
		return boundError("nonce", new(big.Int).Add(new(big.Int).Lsh(nonceKey(op.Nonce), 64), last), op.Nonce,
			"nonce %s is not one this paymaster sponsors now: the next of %s is %s, and an approval may be at most %d ahead",
			op.Nonce, op.Sender.Hex(), new(big.Int).Add(new(big.Int).Lsh(nonceKey(op.Nonce), 64), first), n.svc.cfg.MaxPendingPerSender-1)
	}
	return nil
}

// nodeError logs a failed read of the network and answers that the node did not answer.
func (n *netState) nodeError(ctx context.Context, err error) *jsonrpc.Error {
	n.svc.cfg.Logger.WarnContext(ctx, "bundler: read the network for an approval", "network", n.Network, "err", err)
	return rpcError(jsonrpc.CodeInternal, "The network's node did not answer")
}
