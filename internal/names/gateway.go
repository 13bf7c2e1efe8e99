package names

import (
	"context"
	"crypto/ecdsa"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/ens"
)

// GatewayPath is the gateway's route; GatewayURL appends the ERC-3668 URL
// template to latchd's public base URL.
const GatewayPath = "/v1/names/gateway/{sender}/{data}"

// GatewayURL is the URL an OffchainResolver sends clients to: ERC-3668
// clients replace {sender} and {data} and GET it.
func GatewayURL(apiBase string) string {
	return strings.TrimSuffix(apiBase, "/") + "/v1/names/gateway/{sender}/{data}.json"
}

// AnswerTTL is how long a signed gateway answer is valid (the resolver
// refuses it after): as long as AppKit caches names.
const AnswerTTL = 5 * time.Minute

// maxCallData bounds a gateway request: a DNS-encoded name is at most 255
// bytes, the resolver calls answered carry one node and a short key.
const maxCallData = 2048

// Selectors of the calls the gateway answers.
var (
	selResolve     = [4]byte{0x90, 0x61, 0xb9, 0x23} // resolve(bytes,bytes), ENSIP-10
	selAddr        = [4]byte{0x3b, 0x3b, 0x57, 0xde} // addr(bytes32)
	selAddrCoin    = [4]byte{0xf1, 0xcb, 0x7e, 0x06} // addr(bytes32,uint256), ENSIP-9
	selText        = [4]byte{0x59, 0xd1, 0xd4, 0x3c} // text(bytes32,string), ENSIP-5
	selContenthash = [4]byte{0xbc, 0x1c, 0x58, 0xd1} // contenthash(bytes32), ENSIP-7
)

// coinTypeDefaultEVM is ENSIP-19's default EVM coin type (0x80000000 | 0),
// asked for by clients that want an address valid on every EVM chain.
const coinTypeDefaultEVM = evmCoinTypeBit

// gatewayABI holds the calls the gateway decodes and answers. go-ethereum
// names the overload addr(bytes32,uint256) "addr0".
var gatewayABI = func() abi.ABI {
	a, err := abi.JSON(strings.NewReader(`[
		{"name":"resolve","type":"function","inputs":[{"name":"name","type":"bytes"},{"name":"data","type":"bytes"}],"outputs":[{"name":"result","type":"bytes"},{"name":"expires","type":"uint64"},{"name":"sig","type":"bytes"}]},
		{"name":"addr","type":"function","inputs":[{"name":"node","type":"bytes32"}],"outputs":[{"name":"","type":"address"}]},
		{"name":"addr","type":"function","inputs":[{"name":"node","type":"bytes32"},{"name":"coinType","type":"uint256"}],"outputs":[{"name":"","type":"bytes"}]},
		{"name":"text","type":"function","inputs":[{"name":"node","type":"bytes32"},{"name":"key","type":"string"}],"outputs":[{"name":"","type":"string"}]},
		{"name":"contenthash","type":"function","inputs":[{"name":"node","type":"bytes32"}],"outputs":[{"name":"","type":"bytes"}]}
	]`))
	if err != nil {
		panic(err)
	}
	return a
}()

// Gateway is the ENS offchain resolver gateway of a Service's zone: it
// answers an OffchainResolver's resolve(name, data) lookups with records
// from the store, signed with its key so the resolver can check them.
type Gateway struct {
	svc *Service
	key *ecdsa.PrivateKey // nil: the gateway has no key and answers 503
	now func() time.Time
}

// NewGateway returns the gateway of svc, signing with key (nil: none
// configured, every request is refused). now may be nil (time.Now).
func NewGateway(svc *Service, key *ecdsa.PrivateKey, now func() time.Time) *Gateway {
	if now == nil {
		now = time.Now
	}
	return &Gateway{svc: svc, key: key, now: now}
}

// Signer is the address of the gateway's key, which resolvers must trust;
// zero when it has none.
func (g *Gateway) Signer() common.Address {
	if g.key == nil {
		return common.Address{}
	}
	return crypto.PubkeyToAddress(g.key.PublicKey)
}

// gatewayError is a refusal; Status is the HTTP status.
type gatewayError struct {
	Status  int
	Message string
}

func (e *gatewayError) Error() string { return e.Message }

func badRequest(format string, args ...any) error {
	return &gatewayError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// Answer answers one lookup: sender is the resolver that reverted with
// OffchainLookup, callData its resolve(name, data) call. It returns
// abi.encode(result, expires, sig), which the resolver's resolveWithProof
// accepts. A name of the zone that is not registered is answered with
// empty records (the zero address, empty text), as ENS resolvers answer.
func (g *Gateway) Answer(ctx context.Context, sender common.Address, callData []byte) ([]byte, error) {
	if g.key == nil {
		return nil, &gatewayError{http.StatusServiceUnavailable, "This gateway has no signing key"}
	}
	if len(callData) < 4 || [4]byte(callData[:4]) != selResolve {
		return nil, badRequest("The request is not a call of resolve(bytes,bytes)")
	}
	args, err := gatewayABI.Methods["resolve"].Inputs.Unpack(callData[4:])
	if err != nil {
		return nil, badRequest("The request's resolve call cannot be decoded")
	}
	name, err := decodeDNSName(args[0].([]byte))
	if err != nil {
		return nil, badRequest("%s", err.Error())
	}
	result, err := g.resolve(ctx, name, args[1].([]byte))
	if err != nil {
		return nil, err
	}
	expires := uint64(g.now().Add(AnswerTTL).Unix())
	sig, err := crypto.Sign(SignatureHash(sender, expires, callData, result), g.key)
	if err != nil {
		return nil, err
	}
	sig[64] += 27
	return gatewayABI.Methods["resolve"].Outputs.Pack(result, expires, sig)
}

// SignatureHash is what the gateway signs and OffchainResolver checks:
// keccak256(0x1900 ‖ resolver ‖ expires ‖ keccak256(request) ‖ keccak256(result)).
func SignatureHash(resolver common.Address, expires uint64, request, result []byte) []byte {
	var exp [8]byte
	binary.BigEndian.PutUint64(exp[:], expires)
	return crypto.Keccak256([]byte{0x19, 0x00}, resolver.Bytes(), exp[:], crypto.Keccak256(request), crypto.Keccak256(result))
}

// resolve answers one resolver call for name.
func (g *Gateway) resolve(ctx context.Context, name string, data []byte) ([]byte, error) {
	if len(data) < 4 {
		return nil, badRequest("The resolver call is empty")
	}
	var rec *Record
	zone := g.svc.Zone()
	if label, ok := strings.CutSuffix(name, "."+zone); ok && !strings.Contains(label, ".") {
		if norm, err := NormalizeLabel(label); err == nil && norm == label {
			r, err := g.svc.Lookup(ctx, label)
			if err != nil {
				return nil, err
			}
			rec = r
		}
	} else if name != zone && !strings.HasSuffix(name, "."+zone) {
		return nil, badRequest("%s is not a name of %s", clip(name), zone)
	}
	sel := [4]byte(data[:4])
	var method string
	switch sel {
	case selAddr:
		method = "addr"
	case selAddrCoin:
		method = "addr0"
	case selText:
		method = "text"
	case selContenthash:
		method = "contenthash"
	default:
		return nil, &gatewayError{http.StatusNotFound, fmt.Sprintf("The resolver function 0x%x is not supported", sel)}
	}
	m := gatewayABI.Methods[method]
	args, err := m.Inputs.Unpack(data[4:])
	if err != nil {
		return nil, badRequest("The resolver call cannot be decoded")
	}
	if node := common.Hash(args[0].([32]byte)); node != ens.Namehash(name) {
		return nil, badRequest("The resolver call's node is not the namehash of %s", clip(name))
	}
	switch method {
	case "addr":
		var a common.Address
		if rec != nil {
			a = rec.owner
		}
		return m.Outputs.Pack(a)
	case "addr0":
		var out []byte
		if ct := args[1].(*big.Int); rec != nil && ct.IsUint64() && rec.hasCoinType(ct.Uint64()) {
			out = rec.owner.Bytes()
		}
		return m.Outputs.Pack(out)
	case "text":
		var v string
		if rec != nil {
			v = rec.Attributes[args[1].(string)]
		}
		return m.Outputs.Pack(v)
	default:
		return m.Outputs.Pack([]byte{})
	}
}

// hasCoinType: the record's address is given for ETH (60), ENSIP-19's
// default EVM coin type, and the coin type it was registered with.
func (r *Record) hasCoinType(ct uint64) bool {
	if ct == CoinTypeETH || ct == coinTypeDefaultEVM {
		return true
	}
	_, ok := r.Addresses[fmt.Sprint(ct)]
	return ok
}

// decodeDNSName decodes a DNS wire-format name (length-prefixed labels,
// ending with a zero byte), as ENSIP-10 passes it, into dotted lower case.
func decodeDNSName(b []byte) (string, error) {
	var labels []string
	for i := 0; ; {
		if i >= len(b) {
			return "", errors.New("The DNS-encoded name has no terminating zero byte")
		}
		n := int(b[i])
		if n == 0 {
			if i != len(b)-1 {
				return "", errors.New("The DNS-encoded name has data after its end")
			}
			break
		}
		if i+1+n > len(b) {
			return "", errors.New("The DNS-encoded name has a label past its end")
		}
		labels = append(labels, strings.ToLower(string(b[i+1:i+1+n])))
		i += 1 + n
	}
	if len(labels) == 0 {
		return "", errors.New("The DNS-encoded name is empty")
	}
	return strings.Join(labels, "."), nil
}

// ServeHTTP serves GET GatewayPath: {sender} is the resolver's address,
// {data} its callData in hex, with or without a ".json" suffix. The answer
// is {"data": "0x…"}; a refusal is a 4xx or 5xx with {"message"}, as
// ERC-3668 clients read it.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sender := r.PathValue("sender")
	if !strings.HasPrefix(sender, "0x") || !common.IsHexAddress(sender) {
		g.writeError(w, r, badRequest("sender is not an address"))
		return
	}
	raw := strings.TrimSuffix(r.PathValue("data"), ".json")
	if len(raw) > 2+2*maxCallData {
		g.writeError(w, r, badRequest("data is longer than %d bytes", maxCallData))
		return
	}
	callData, err := hexutil.Decode(raw)
	if err != nil {
		g.writeError(w, r, badRequest("data is not 0x-prefixed hex"))
		return
	}
	out, err := g.Answer(r.Context(), common.HexToAddress(sender), callData)
	if err != nil {
		g.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=60")
	json.NewEncoder(w).Encode(struct {
		Data string `json:"data"`
	}{hexutil.Encode(out)})
}

func (g *Gateway) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var ge *gatewayError
	if !errors.As(err, &ge) {
		// A store or signing failure: its detail goes to the log only.
		g.svc.cfg.Logger.ErrorContext(r.Context(), "names gateway", "err", err)
		ge = &gatewayError{http.StatusInternalServerError, "Internal server error"}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(ge.Status)
	json.NewEncoder(w).Encode(struct {
		Message string `json:"message"`
	}{ge.Message})
}
