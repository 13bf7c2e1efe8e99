package account

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/ens"
	"github.com/latchkit/latch/internal/evm"
)

// Identity is an account's display name and avatar (spec §3 Identity).
type Identity struct {
	Name   *string `json:"name"`
	Avatar *string `json:"avatar"`
}

// NameResolver finds the primary name of an address.
//
// Every implementation guarantees: a returned name is one that resolves
// forward to the address (so showing it cannot impersonate someone else);
// an address without a name is a zero Identity and a nil error, never an
// error; an error means the lookup could not be made, and callers do not
// cache it. latchd puts its own names (internal/names) after ENS, as the
// fallback when ENS has no name.
type NameResolver interface {
	ReverseName(ctx context.Context, addr common.Address) (Identity, error)
}

// Resolvers tries each resolver in order; the first name found wins.
type Resolvers []NameResolver

// ReverseName implements NameResolver. An error of one resolver is
// returned only when no later one found a name.
func (rs Resolvers) ReverseName(ctx context.Context, addr common.Address) (Identity, error) {
	var errs []error
	for _, r := range rs {
		id, err := r.ReverseName(ctx, addr)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if id.Name != nil {
			return id, nil
		}
	}
	return Identity{}, errors.Join(errs...)
}

// ENSRegistry is the ENS registry's address, the same on Ethereum mainnet
// and its testnets.
var ENSRegistry = common.HexToAddress("0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e")

// ENS resolves primary names with the ENS registry: the reverse record of
// <addr>.addr.reverse, verified forward (the name's addr record must be the
// address), and the name's avatar text record.
type ENS struct {
	Client   func() *evm.Client // nil client: no upstream, no names
	Registry common.Address
	// IPFSAvatars keeps ipfs:// avatars, for when latchd's image proxy has
	// an IPFS gateway to fetch them through.
	IPFSAvatars bool
}

var ensABI = func() abi.ABI {
	a, err := abi.JSON(strings.NewReader(`[
		{"name":"resolver","type":"function","stateMutability":"view","inputs":[{"name":"node","type":"bytes32"}],"outputs":[{"name":"","type":"address"}]},
		{"name":"name","type":"function","stateMutability":"view","inputs":[{"name":"node","type":"bytes32"}],"outputs":[{"name":"","type":"string"}]},
		{"name":"addr","type":"function","stateMutability":"view","inputs":[{"name":"node","type":"bytes32"}],"outputs":[{"name":"","type":"address"}]},
		{"name":"text","type":"function","stateMutability":"view","inputs":[{"name":"node","type":"bytes32"},{"name":"key","type":"string"}],"outputs":[{"name":"","type":"string"}]}
	]`))
	if err != nil {
		panic(err)
	}
	return a
}()

// ReverseName implements NameResolver.
func (e ENS) ReverseName(ctx context.Context, addr common.Address) (Identity, error) {
	client := e.Client()
	if client == nil {
		return Identity{}, nil
	}
	reverse := ens.Namehash(strings.ToLower(addr.Hex()[2:]) + ".addr.reverse")
	resolver, err := e.callAddress(ctx, client, e.Registry, "resolver", reverse)
	if err != nil || resolver == (common.Address{}) {
		return Identity{}, err
	}
	name, err := e.callString(ctx, client, resolver, "name", reverse)
	if err != nil || !plausibleName(name) {
		return Identity{}, ignoreRevert(err)
	}
	node := ens.Namehash(name)
	fwd, err := e.callAddress(ctx, client, e.Registry, "resolver", node)
	if err != nil || fwd == (common.Address{}) {
		return Identity{}, err
	}
	addrData, _ := ensABI.Pack("addr", node)
	textData, _ := ensABI.Pack("text", node, "avatar")
	calls := []evm.CallElem{{To: fwd, Data: addrData}, {To: fwd, Data: textData}}
	if err := client.CallBatch(ctx, calls); err != nil {
		return Identity{}, err
	}
	if calls[0].Err != nil {
		return Identity{}, nil
	}
	vals, err := ensABI.Unpack("addr", calls[0].Result)
	if err != nil || vals[0].(common.Address) != addr {
		return Identity{}, nil // the name points elsewhere: not this address's name
	}
	id := Identity{Name: &name}
	if calls[1].Err == nil {
		if vals, err := ensABI.Unpack("text", calls[1].Result); err == nil {
			if avatar := vals[0].(string); displayableAvatar(avatar, e.IPFSAvatars) {
				id.Avatar = &avatar
			}
		}
	}
	return id, nil
}

func (e ENS) callAddress(ctx context.Context, client *evm.Client, to common.Address, method string, node common.Hash) (common.Address, error) {
	data, _ := ensABI.Pack(method, node)
	out, err := client.CallContract(ctx, to, data)
	if err != nil {
		return common.Address{}, ignoreRevert(err)
	}
	vals, err := ensABI.Unpack(method, out)
	if err != nil {
		return common.Address{}, nil
	}
	return vals[0].(common.Address), nil
}

func (e ENS) callString(ctx context.Context, client *evm.Client, to common.Address, method string, node common.Hash) (string, error) {
	data, _ := ensABI.Pack(method, node)
	out, err := client.CallContract(ctx, to, data)
	if err != nil {
		return "", err
	}
	vals, err := ensABI.Unpack(method, out)
	if err != nil {
		return "", nil
	}
	return vals[0].(string), nil
}

// ignoreRevert: a reverting resolver means "no name", not a failed lookup.
func ignoreRevert(err error) error {
	if err != nil && strings.Contains(strings.ToLower(err.Error()), "revert") {
		return nil
	}
	return err
}

// plausibleName rejects reverse records no one should see as a name:
// empty, over-long, not UTF-8, with empty labels, spaces or control characters.
func plausibleName(name string) bool {
	if name == "" || len(name) > 255 || !utf8.ValidString(name) || strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") || strings.Contains(name, "..") {
		return false
	}
	for _, r := range name {
		if r <= 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return false
		}
	}
	return strings.Contains(name, ".")
}

// displayableAvatar: only avatars latchd's image proxy can fetch in one
// request (an NFT reference needs the token's metadata; ipfs:// needs a
// gateway, ipfs says whether there is one) or inline data: images.
func displayableAvatar(s string, ipfs bool) bool {
	return len(s) <= 2048 && (strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "data:image/") || ipfs && strings.HasPrefix(s, "ipfs://"))
}

// RefreshIdentity looks an address's identity up again and replaces the
// cached one, for when its name changed (it registered one with latchd).
// Errors: apperr.Unavailable when the lookup failed (the cache is left).
func (s *Service) RefreshIdentity(ctx context.Context, addr common.Address) error {
	if s.cfg.Names == nil {
		return nil
	}
	id, err := s.cfg.Names.ReverseName(ctx, addr)
	if err != nil {
		return apperr.Errorf(apperr.Unavailable, "Name lookup is unavailable; retry later")
	}
	if raw, err := json.Marshal(id); err == nil {
		s.cfg.Cache.Set(ctx, "identity:"+strings.ToLower(addr.Hex()), raw, IdentityTTL)
	}
	return nil
}

// Identity returns an address's name and avatar, cached IdentityTTL
// (including "no name"). Errors: apperr.Unavailable when the lookup failed,
// and what spend returns.
func (s *Service) Identity(ctx context.Context, addr common.Address, spend Spend) (Identity, error) {
	if s.cfg.Names == nil {
		return Identity{}, nil
	}
	key := "identity:" + strings.ToLower(addr.Hex())
	if raw, ok, err := s.cfg.Cache.Get(ctx, key); err == nil && ok {
		var id Identity
		if json.Unmarshal(raw, &id) == nil {
			return id, nil
		}
	}
	if spend != nil {
		if err := spend(ctx); err != nil {
			return Identity{}, err
		}
	}
	id, err := s.cfg.Names.ReverseName(ctx, addr)
	if err != nil {
		return Identity{}, apperr.Errorf(apperr.Unavailable, "Name lookup is unavailable; retry later")
	}
	if raw, err := json.Marshal(id); err == nil {
		s.cfg.Cache.Set(ctx, key, raw, IdentityTTL)
	}
	return id, nil
}
