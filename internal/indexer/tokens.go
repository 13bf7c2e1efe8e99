package indexer

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/evm"
)

// Token is a token contract's metadata.
type Token struct {
	Address  common.Address
	Standard int // 20 (ERC-20) or 721 (ERC-721)
	Name     string
	Symbol   string
	// Decimals is the ERC-20 decimals; -1 when the contract did not say.
	Decimals int
	// WrappedNative marks the network's WETH9-style wrapper of its coin.
	WrappedNative bool
	// Listed marks tokens from latchd's token list (or the dev tokens), which
	// balances always include.
	Listed bool
}

// Tokens is the token metadata of every indexed network: the listed tokens
// given at construction, then what was read from contracts (stored, so each
// contract is asked once). It is safe for concurrent use.
type Tokens struct {
	store *Store

	mu     sync.RWMutex
	tokens map[uint64]map[common.Address]Token
}

// NewTokens returns a registry holding the listed tokens of each chain.
func NewTokens(store *Store, listed map[uint64][]Token) *Tokens {
	t := &Tokens{store: store, tokens: map[uint64]map[common.Address]Token{}}
	for chain, list := range listed {
		m := map[common.Address]Token{}
		for _, tok := range list {
			tok.Listed = true
			if tok.Standard == 0 {
				tok.Standard = 20
			}
			m[tok.Address] = tok
		}
		t.tokens[chain] = m
	}
	return t
}

// Listed returns the listed tokens of a chain.
func (t *Tokens) Listed(chainID uint64) []Token {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var out []Token
	for _, tok := range t.tokens[chainID] {
		if tok.Listed {
			out = append(out, tok)
		}
	}
	return out
}

// Known returns a token's metadata if the registry holds it, without any I/O.
func (t *Tokens) Known(chainID uint64, addr common.Address) (Token, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	tok, ok := t.tokens[chainID][addr]
	return tok, ok
}

func (t *Tokens) remember(chainID uint64, tok Token) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := t.tokens[chainID]
	if m == nil {
		m = map[common.Address]Token{}
		t.tokens[chainID] = m
	}
	if old, ok := m[tok.Address]; ok && old.Listed {
		return
	}
	m[tok.Address] = tok
}

// chainKinds answers decode's wrapped-native question for one chain.
type chainKinds struct {
	t       *Tokens
	chainID uint64
}

func (k chainKinds) IsWrappedNative(addr common.Address) bool {
	tok, ok := k.t.Known(k.chainID, addr)
	return ok && tok.WrappedNative
}

// Resolve returns the metadata of the given contracts of a chain, reading
// the ones neither listed nor stored from the chain (name, symbol,
// decimals in one batch) and storing them. standard says what each address
// was seen as (20 or 721). A contract that answers nothing useful gets an
// entry with empty name and symbol and Decimals -1, so it is not asked again.
func (t *Tokens) Resolve(ctx context.Context, client *evm.Client, chainID uint64, want map[common.Address]int) (map[common.Address]Token, error) {
	out := make(map[common.Address]Token, len(want))
	var missing []common.Address
	for addr := range want {
		if tok, ok := t.Known(chainID, addr); ok {
			out[addr] = tok
		} else {
			missing = append(missing, addr)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	stored, err := t.store.tokens(ctx, chainID, missing)
	if err != nil {
		return nil, err
	}
	var fetch []common.Address
	for _, addr := range missing {
		if tok, ok := stored[addr]; ok {
			t.remember(chainID, tok)
			out[addr] = tok
		} else {
			fetch = append(fetch, addr)
		}
	}
	if len(fetch) == 0 || client == nil {
		return out, nil
	}
	fetched, err := readTokenMetadata(ctx, client, fetch, want)
	if err != nil {
		return nil, err
	}
	if err := t.store.saveTokens(ctx, chainID, fetched); err != nil {
		return nil, err
	}
	for _, tok := range fetched {
		t.remember(chainID, tok)
		out[tok.Address] = tok
	}
	return out, nil
}

// ERC-20 metadata selectors.
var (
	selName     = crypto.Keccak256([]byte("name()"))[:4]
	selSymbol   = crypto.Keccak256([]byte("symbol()"))[:4]
	selDecimals = crypto.Keccak256([]byte("decimals()"))[:4]
)

var stringType, _ = abi.NewType("string", "", nil)

// readTokenMetadata asks each contract for name, symbol and decimals in one batch.
func readTokenMetadata(ctx context.Context, client *evm.Client, addrs []common.Address, standard map[common.Address]int) ([]Token, error) {
	calls := make([]evm.CallElem, 0, 3*len(addrs))
	for _, a := range addrs {
		calls = append(calls, evm.CallElem{To: a, Data: selName}, evm.CallElem{To: a, Data: selSymbol}, evm.CallElem{To: a, Data: selDecimals})
	}
	if err := client.CallBatch(ctx, calls); err != nil {
		return nil, err
	}
	out := make([]Token, len(addrs))
	for i, a := range addrs {
		tok := Token{Address: a, Standard: standard[a], Decimals: -1}
		if tok.Standard == 0 {
			tok.Standard = 20
		}
		tok.Name = decodeString(calls[3*i])
		tok.Symbol = decodeString(calls[3*i+1])
		if d := calls[3*i+2]; d.Err == nil && len(d.Result) == 32 {
			if v := new(big.Int).SetBytes(d.Result); v.IsUint64() && v.Uint64() <= 77 {
				tok.Decimals = int(v.Uint64())
			}
		}
		if tok.Standard == 721 {
			tok.Decimals = 0
		}
		out[i] = tok
	}
	return out, nil
}

// maxTokenText bounds a token name or symbol: contracts return what they like.
const maxTokenText = 64

// decodeString reads an ABI string, or the bytes32 some old tokens (MKR)
// return; anything else, or text that is not UTF-8, is "".
func decodeString(c evm.CallElem) string {
	if c.Err != nil || len(c.Result) == 0 {
		return ""
	}
	var s string
	if len(c.Result) == 32 {
		s = string(bytesTrimZero(c.Result))
	} else if vals, err := stringArgs.Unpack(c.Result); err == nil && len(vals) == 1 {
		s, _ = vals[0].(string)
	}
	s = strings.TrimSpace(s)
	if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return ""
	}
	if len(s) > maxTokenText {
		s = s[:maxTokenText]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}

func bytesTrimZero(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return b
}

// errUnknownChain is returned for a chain the indexer does not follow.
var errUnknownChain = errors.New("chain not indexed")

// stringArgs is one ABI string value.
var stringArgs = abi.Arguments{{Type: stringType}}
