package bundler

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/jsonrpc"
)

// Sessions authenticates a visitor's Latch session (internal/auth) for
// policies with RequireSession.
type Sessions interface {
	// SessionUser returns the user of projectID's live session whose access
	// token is accessToken, or ErrNoSession when there is none (unknown,
	// expired or revoked); other errors are failures to look.
	SessionUser(ctx context.Context, projectID, accessToken string) (string, error)
}

// ErrNoSession is Sessions.SessionUser's answer for a token of no live session.
var ErrNoSession = errors.New("bundler: no live Latch session")

// SponsorContext is what latchd reads of ERC-7677's context parameter
// (pm_getPaymasterStubData and pm_getPaymasterData's fourth).
type SponsorContext struct {
	// AccessToken is the visitor's Latch session: the embedded wallet's
	// access token.
	AccessToken string `json:"latchSession,omitempty"`
	// Proof is the wallet owner's personal_sign of SessionProofMessage,
	// which shows the operation's sender is that wallet's smart account.
	Proof hexutil.Bytes `json:"latchSessionProof,omitempty"`
}

// ParseSponsorContext reads ERC-7677's context: an object whose other
// members are ignored; null or absent is the empty context.
func ParseSponsorContext(raw json.RawMessage) (SponsorContext, error) {
	var sc SponsorContext
	if len(raw) == 0 || string(raw) == "null" {
		return sc, nil
	}
	if err := json.Unmarshal(raw, &sc); err != nil {
		return sc, fmt.Errorf("context must be an object with latchSession and latchSessionProof strings: %v", err)
	}
	return sc, nil
}

// SessionProofMessage is what a Latch wallet's owner key signs
// (personal_sign) to bind its session to its smart account sender on
// chainID (the address in lowercase); the access token appears only as its
// SHA-256, so the proof works with that session alone.
func SessionProofMessage(chainID uint64, sender common.Address, accessToken string) string {
	sum := sha256.Sum256([]byte(accessToken))
	return fmt.Sprintf("Latch sponsorship\nAccount: %s\nChain: %d\nSession: %x", hexLower(sender[:]), chainID, sum)
}

var accountCreationCode = contracts.MustLoad("LatchSmartAccount").Bytecode

// SmartAccountAddress is LatchSmartAccountFactory.getAddress(owner, salt)
// of the factory at factory for the EntryPoint entryPoint: the CREATE2
// address of LatchSmartAccount(entryPoint, owner).
func SmartAccountAddress(factory, entryPoint, owner common.Address, salt *big.Int) common.Address {
	init := append(append([]byte(nil), accountCreationCode...), common.LeftPadBytes(entryPoint[:], 32)...)
	init = append(init, common.LeftPadBytes(owner[:], 32)...)
	return crypto.CreateAddress2(factory, common.BigToHash(salt), crypto.Keccak256(init))
}

// sessionUser checks, for a policy with RequireSession, that sc carries a
// live session of projectID and (final approvals) the proof that op's
// sender is the smart account (salt 0 of the network's factory, as the
// widget makes them) of the key that signed it. It returns the session's
// user. latchd never sees the wallet's key: the proof is what ties the
// session to the sender.
func (s *Service) sessionUser(ctx context.Context, n *netState, projectID string, op *UserOperation, sc SponsorContext, final bool) (string, *jsonrpc.Error) {
	if s.cfg.Sponsorship.Sessions == nil {
		return "", rpcError(CodePaymasterRejected, "This project sponsors only operations of a signed-in Latch wallet, and this latchd has no Latch sessions to check (the embedded wallet is not configured)")
	}
	if sc.AccessToken == "" {
		return "", rpcError(CodePaymasterRejected, "This project sponsors only operations of a signed-in Latch wallet: the context has no latchSession")
	}
	user, err := s.cfg.Sponsorship.Sessions.SessionUser(ctx, projectID, sc.AccessToken)
	if errors.Is(err, ErrNoSession) {
		return "", rpcError(CodePaymasterRejected, "The Latch session in the context has expired or was revoked: sign in again")
	}
	if err != nil {
		s.cfg.Logger.ErrorContext(ctx, "bundler: check Latch session", "err", err)
		return "", errInternal
	}
	if !final {
		return user, nil
	}
	if len(sc.Proof) != 65 {
		return "", rpcError(CodePaymasterRejected, "This project sponsors only a Latch wallet's own smart account: the context has no latchSessionProof (the owner's 65-byte signature)")
	}
	sig := bytes.Clone(sc.Proof)
	if sig[64] >= 27 {
		sig[64] -= 27
	}
	pub, err := crypto.SigToPub(accounts.TextHash([]byte(SessionProofMessage(n.ChainID, op.Sender, sc.AccessToken))), sig)
	if err != nil || SmartAccountAddress(n.Factory, n.EntryPoint, crypto.PubkeyToAddress(*pub), new(big.Int)) != op.Sender {
		return "", rpcError(CodePaymasterRejected, "The latchSessionProof does not show that %s is this session's Latch wallet", op.Sender.Hex())
	}
	return user, nil
}
