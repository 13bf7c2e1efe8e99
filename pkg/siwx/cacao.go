package siwx

import (
	"context"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/latchkit/latch/contracts"
)

// CACAO is a sign-in as a CAIP-74 chain-agnostic object capability.
type CACAO struct {
	H CACAOHeader    `json:"h"`
	P CACAOPayload   `json:"p"`
	S CACAOSignature `json:"s"`
}

// CACAOHeader names the message format: "eip4361" or "caip122".
type CACAOHeader struct {
	T string `json:"t"`
}

// CACAOPayload holds the message's fields; iss is the signer as a did:pkh.
type CACAOPayload struct {
	Domain    string   `json:"domain"`
	Iss       string   `json:"iss"`
	Aud       string   `json:"aud"`
	Version   string   `json:"version"`
	Nonce     string   `json:"nonce"`
	Iat       string   `json:"iat"`
	Nbf       string   `json:"nbf,omitempty"`
	Exp       string   `json:"exp,omitempty"`
	Statement string   `json:"statement,omitempty"`
	RequestID string   `json:"requestId,omitempty"`
	Resources []string `json:"resources,omitempty"`
}

// CACAOSignature is the signature and how it verifies.
type CACAOSignature struct {
	T string `json:"t"`
	S string `json:"s"`
}

// CACAO returns the sign-in as a CAIP-74 object.
func (s *SignIn) CACAO() CACAO {
	m := s.Message
	h := "eip4361"
	if m.Namespace != EIP155 {
		h = "caip122"
	}
	p := CACAOPayload{
		Domain: m.Domain, Iss: "did:pkh:" + m.ChainID + ":" + m.Address, Aud: m.URI, Version: m.Version,
		Nonce: m.Nonce, Iat: m.IssuedAt.UTC().Format(time.RFC3339Nano), Statement: m.Statement, Resources: m.Resources,
	}
	if m.NotBefore != nil {
		p.Nbf = m.NotBefore.UTC().Format(time.RFC3339Nano)
	}
	if m.ExpirationTime != nil {
		p.Exp = m.ExpirationTime.UTC().Format(time.RFC3339Nano)
	}
	if m.RequestID != nil {
		p.RequestID = *m.RequestID
	}
	return CACAO{H: CACAOHeader{T: h}, P: p, S: CACAOSignature{T: s.Kind, S: s.Signature}}
}

// RPCCaller is an EthCaller over a go-ethereum RPC connection, for a
// backend that verifies smart-account sign-ins against its own node:
//
//	c, _ := rpc.Dial("https://eth.example.com")
//	v := siwx.Verifier{Chains: func(string) (siwx.EthCaller, error) { return siwx.RPCCaller{Client: c}, nil }}
type RPCCaller struct {
	Client *rpc.Client
}

// EthCall runs eth_call at the latest block.
func (c RPCCaller) EthCall(ctx context.Context, to *common.Address, data []byte) ([]byte, error) {
	arg := map[string]any{"data": hexutil.Bytes(data)}
	if to != nil {
		arg["to"] = *to
	}
	var out hexutil.Bytes
	err := c.Client.CallContext(ctx, &out, "eth_call", arg, "latest")
	return out, err
}

// validateSigOffchainCode is the creation code of ERC-6492's universal
// validator (contracts/src/ValidateSigOffchain.sol).
var validateSigOffchainCode = sync.OnceValue(func() []byte {
	return contracts.MustLoad("ValidateSigOffchain").Bytecode
})
