package bundler

import (
	"context"

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

// policy is projectID's stored sponsorship policy, or the default.
func (s *Service) policy(ctx context.Context, projectID string) (Policy, error) {
	p, ok, err := s.cfg.Store.Policy(ctx, projectID)
	if err != nil || !ok {
		return s.cfg.DefaultPolicy, err
	}
	return p, nil
}

// sponsorable checks everything but the caps: a paymaster on the network,
// the EntryPoint and chain id, the project's policy and its allowed contracts.
func (s *Service) sponsorable(ctx context.Context, projectID, network string, op *UserOperation, entryPoint common.Address, chainID string) (*netState, Policy, *jsonrpc.Error) {
	n, rerr := s.net(network)
	if rerr != nil {
		return nil, Policy{}, rerr
	}
	if rerr := n.checkEntryPoint(entryPoint); rerr != nil {
		return nil, Policy{}, rerr
	}
	if id, err := hexutil.DecodeUint64(chainID); err != nil || id != n.ChainID {
		return nil, Policy{}, rpcError(CodeInvalidFields, "chainId %q is not this network's (%s)", chainID, hexutil.EncodeUint64(n.ChainID))
	}
	if n.Paymaster == (common.Address{}) {
		return nil, Policy{}, rpcError(CodePaymasterRejected, "no paymaster on %s", network)
	}
	p, err := s.policy(ctx, projectID)
	if err != nil {
		s.cfg.Logger.ErrorContext(ctx, "bundler: read sponsorship policy", "err", err)
		return nil, Policy{}, errInternal
	}
	if !p.Enabled {
		return nil, Policy{}, rpcError(CodePaymasterRejected, "This project does not sponsor operations")
	}
	if len(p.AllowedContracts) > 0 {
		targets, ok := callTargets(op.CallData)
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

func (s *Service) capsLeft(ctx context.Context, projectID string, sender common.Address, p Policy) *jsonrpc.Error {
	perAccount, total, err := s.cfg.Store.SponsoredToday(ctx, projectID, sender, s.cfg.Now())
	if err != nil {
		s.cfg.Logger.ErrorContext(ctx, "bundler: count sponsorships", "err", err)
		return errInternal
	}
	return capError(p, perAccount, total)
}

func capError(p Policy, perAccount, total int) *jsonrpc.Error {
	if p.AccountDailyCap > 0 && perAccount >= p.AccountDailyCap {
		return rpcError(CodeThrottled, "This account has reached today's limit of %d sponsored operations", p.AccountDailyCap)
	}
	if p.DailyCap > 0 && total >= p.DailyCap {
		return rpcError(CodeThrottled, "This project has reached today's limit of %d sponsored operations", p.DailyCap)
	}
	return nil
}

// PaymasterStubData answers pm_getPaymasterStubData: the paymaster, its gas
// limits and placeholder data, when the project's policy would sponsor op.
func (s *Service) PaymasterStubData(ctx context.Context, projectID, network string, op *UserOperation, entryPoint common.Address, chainID string) (*PaymasterStub, *jsonrpc.Error) {
	n, p, rerr := s.sponsorable(ctx, projectID, network, op, entryPoint, chainID)
	if rerr != nil {
		return nil, rerr
	}
	if rerr := s.capsLeft(ctx, projectID, op.Sender, p); rerr != nil {
		return nil, rerr
	}
	validUntil := uint64(s.cfg.Now().Add(s.cfg.ApprovalLifetime).Unix())
	data, err := PaymasterData(op, n.ChainID, validUntil, 0, nil)
	if err != nil {
		return nil, errInternal
	}
	return &PaymasterStub{
		Paymaster: n.Paymaster, PaymasterData: data,
		PaymasterVerificationGasLimit: paymasterVerificationGas, PaymasterPostOpGasLimit: paymasterPostOpGas,
	}, nil
}

// PaymasterData answers pm_getPaymasterData: the paymaster signer's
// approval of op (with its final gas limits and fees) for
// Config.ApprovalLifetime. Each approval counts against the caps, recorded
// atomically with their check.
func (s *Service) PaymasterData(ctx context.Context, projectID, network string, op *UserOperation, entryPoint common.Address, chainID string) (*PaymasterApproval, *jsonrpc.Error) {
	n, p, rerr := s.sponsorable(ctx, projectID, network, op, entryPoint, chainID)
	if rerr != nil {
		return nil, rerr
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
	if cost := signed.RequiredPrefund(); cost.Cmp(s.cfg.MaxSponsoredCost) > 0 {
		return nil, rpcError(CodePaymasterRejected, "The operation may cost %s wei, more than the %s wei this paymaster sponsors: lower its gas limits or maxFeePerGas", cost, s.cfg.MaxSponsoredCost)
	}
	now := s.cfg.Now()
	validUntil := uint64(now.Add(s.cfg.ApprovalLifetime).Unix())
	id := PaymasterHash(signed, n.ChainID, validUntil, 0)
	recorded, err := s.cfg.Store.Sponsor(ctx, id, projectID, network, op.Sender, p, now)
	if err != nil {
		s.cfg.Logger.ErrorContext(ctx, "bundler: record sponsorship", "err", err)
		return nil, errInternal
	}
	if !recorded {
		if rerr := s.capsLeft(ctx, projectID, op.Sender, p); rerr != nil {
			return nil, rerr
		}
		return nil, rpcError(CodeThrottled, "sponsorship limit reached")
	}
	data, err := PaymasterData(signed, n.ChainID, validUntil, 0, n.PaymasterKey)
	if err != nil {
		return nil, errInternal
	}
	return &PaymasterApproval{
		Paymaster: pm, PaymasterData: data,
		PaymasterVerificationGasLimit: hexutil.Uint64(signed.PaymasterVerificationGasLimit),
		PaymasterPostOpGasLimit:       hexutil.Uint64(signed.PaymasterPostOpGasLimit),
	}, nil
}
