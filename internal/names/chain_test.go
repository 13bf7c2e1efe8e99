package names

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/devnet"
	"github.com/latchkit/latch/internal/ens"
	"github.com/latchkit/latch/internal/evm"
	"github.com/latchkit/latch/internal/poll"
	"github.com/latchkit/latch/internal/store/storetest"
)

// shared is the dev chain of the package's on-chain tests (chain id devChainID).
var shared *devnet.Devnet

func TestMain(m *testing.M) {
	d, err := devnet.Start(context.Background(), devnet.Config{ChainIDs: []uint64{devChainID}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		fmt.Fprintln(os.Stderr, "start devnet:", err)
		os.Exit(1)
	}
	shared = d
	code := m.Run()
	d.Close()
	os.Exit(code)
}

var (
	smartWalletArtifact      = contracts.MustLoad("DevSmartWallet")
	walletFactoryArtifact    = contracts.MustLoad("DevSmartWalletFactory")
	ensRegistryArtifact      = contracts.MustLoad("DevENSRegistry")
	offchainResolverArtifact = contracts.MustLoad("OffchainResolver")
)

// chainEnv is a funded account on the dev chain and clients of the chain.
type chainEnv struct {
	t     *testing.T
	chain devnet.Chain
	eth   *ethclient.Client
	evm   *evm.Client
	payer signer
}

func newChainEnv(t *testing.T) *chainEnv {
	t.Helper()
	c := shared.Chains()[0]
	eth, err := ethclient.Dial(c.RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eth.Close)
	client, err := evm.NewClient([]string{c.RPCURL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	payer := newSigner(t)
	if _, err := shared.Faucet(context.Background(), devnet.FaucetRequest{Address: payer.addr.Hex(), CAIPNetworkID: c.CAIPNetworkID, Token: "ETH", Amount: "1"}); err != nil {
		t.Fatal(err)
	}
	return &chainEnv{t: t, chain: c, eth: eth, evm: client, payer: payer}
}

// send makes the payer send a transaction (a contract creation when to is
// nil) and waits for its receipt.
func (e *chainEnv) send(to *common.Address, data []byte) *types.Receipt {
	e.t.Helper()
	ctx := context.Background()
	nonce, err := e.eth.PendingNonceAt(ctx, e.payer.addr)
	if err != nil {
		e.t.Fatal(err)
	}
	head, err := e.eth.HeaderByNumber(ctx, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	id := new(big.Int).SetUint64(e.chain.ChainID)
	tx, err := types.SignNewTx(e.payer.key, types.LatestSignerForChainID(id), &types.DynamicFeeTx{
		ChainID: id, Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(3)), big.NewInt(1e9)),
		Gas: 3_000_000, To: to, Value: new(big.Int), Data: data,
	})
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.eth.SendTransaction(ctx, tx); err != nil {
		e.t.Fatal(err)
	}
	wake := make(chan struct{}, 1)
	stop, err := shared.WatchHeads(e.chain.CAIPNetworkID, wake)
	if err != nil {
		e.t.Fatal(err)
	}
	defer stop()
	// Mined, and its block the head: a receipt can be read before calls at
	// "latest" see the block's state (a resolver just set was not there yet).
	var r *types.Receipt
	if !poll.Until(10*time.Second, wake, func() bool {
		if r == nil {
			if r, err = e.eth.TransactionReceipt(ctx, tx.Hash()); err != nil {
				r = nil
				return false
			}
		}
		n, err := e.eth.BlockNumber(ctx)
		return err == nil && n >= r.BlockNumber.Uint64()
	}) {
		e.t.Fatalf("transaction %s not mined", tx.Hash())
	}
	if r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("transaction %s reverted", tx.Hash())
	}
	return r
}

func (e *chainEnv) deploy(a *contracts.Artifact, args ...any) common.Address {
	e.t.Helper()
	data, err := a.DeployData(args...)
	if err != nil {
		e.t.Fatal(err)
	}
	return e.send(nil, data).ContractAddress
}

func (e *chainEnv) verifier() SignatureVerifier {
	return SignatureVerifier{Client: func(id uint64) *evm.Client {
		if id == e.chain.ChainID {
			return e.evm
		}
		return nil
	}}
}

// factoryAccounts makes Config.SmartAccount the wallets of a
// DevSmartWalletFactory on the dev chain: an owner's account is the
// factory's wallet of (owner, salt), as LatchSmartAccountFactory's is in latchd.
func (e *chainEnv) factoryAccounts(factory common.Address, salt [32]byte) func(*Config) {
	return func(c *Config) {
		c.SmartAccount = func(ctx context.Context, chainID uint64, owner common.Address) (common.Address, bool, error) {
			if chainID != e.chain.ChainID {
				return common.Address{}, false, nil
			}
			out, err := e.evm.CallContract(ctx, factory, mustPack(e.t, walletFactoryArtifact, "walletAddress", owner, salt))
			return common.BytesToAddress(out), err == nil, err
		}
	}
}

func TestSignatureVerifier_ERC1271(t *testing.T) {
	e := newChainEnv(t)
	owner, stranger := newSigner(t), newSigner(t)
	factory, salt := e.deploy(walletFactoryArtifact), [32]byte{2}
	e.send(&factory, mustPack(t, walletFactoryArtifact, "deploy", owner.addr, salt))
	out, err := e.eth.CallContract(context.Background(), ethereum.CallMsg{To: &factory, Data: mustPack(t, walletFactoryArtifact, "walletAddress", owner.addr, salt)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wallet := common.BytesToAddress(out)
	svc, clock := MustService(t, storetest.MustOpenSQLite(t), e.verifier(), e.factoryAccounts(factory, salt))
	ctx := context.Background()

	t.Run("ErrNotOwner", func(t *testing.T) {
		_, err := svc.Register(ctx, registration(t, stranger, wallet, "wallet", nil, clock.t), callerOf(stranger))
		wantErr(t, err, apperr.Unauthorized, "not signed by "+wallet.Hex())
	})
	t.Run("OK", func(t *testing.T) {
		rec, err := svc.Register(ctx, registration(t, owner, wallet, "wallet", nil, clock.t), callerOf(owner))
		if err != nil {
			t.Fatal(err)
		}
		if rec.Owner() != wallet {
			t.Fatalf("owner %s, want the smart wallet %s", rec.Owner(), wallet)
		}
	})
	t.Run("ErrNoCodeNoKey", func(t *testing.T) {
		// An address without code answers isValidSignature with nothing.
		nobody := newSigner(t)
		_, err := svc.Register(ctx, registration(t, owner, nobody.addr, "nobody", nil, clock.t), callerOf(owner))
		wantErr(t, err, apperr.Unauthorized, "not signed by")
	})
	t.Run("ErrNoNode", func(t *testing.T) {
		// Without a node of the chain only an EOA signature can be checked.
		svc, clock := MustService(t, storetest.MustOpenSQLite(t), SignatureVerifier{})
		_, err := svc.Register(ctx, registration(t, owner, wallet, "wallet", nil, clock.t), callerOf(owner))
		wantErr(t, err, apperr.Unauthorized, "not signed by")
	})
	t.Run("ErrNotTheAccountsSmartAccount", func(t *testing.T) {
		// A contract that accepts the owner's signature but is not the
		// owner's account of the factory: a name per such contract would
		// be a name per deployment, so it is not the auth connector's account.
		other := e.deploy(smartWalletArtifact, owner.addr)
		_, err := svc.Register(ctx, registration(t, owner, other, "other", nil, clock.t), callerOf(owner))
		wantErr(t, err, apperr.Forbidden, MsgAddressNotFound)
	})
}

func TestSignatureVerifier_ERC6492(t *testing.T) {
	e := newChainEnv(t)
	owner, stranger := newSigner(t), newSigner(t)
	factory := e.deploy(walletFactoryArtifact)
	salt := [32]byte{1}
	out, err := e.eth.CallContract(context.Background(), ethereum.CallMsg{To: &factory, Data: mustPack(t, walletFactoryArtifact, "walletAddress", owner.addr, salt)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wallet := common.BytesToAddress(out)
	svc, clock := MustService(t, storetest.MustOpenSQLite(t), e.verifier(), e.factoryAccounts(factory, salt))
	ctx := context.Background()
	// wrap is ERC-6492's signature of an undeployed account: the factory,
	// the call that deploys it, and the owner's signature, then the suffix.
	wrap := func(reg Registration) Registration {
		args := abi.Arguments{{Type: mustType(t, "address")}, {Type: mustType(t, "bytes")}, {Type: mustType(t, "bytes")}}
		enc, err := args.Pack(factory, mustPack(t, walletFactoryArtifact, "deploy", owner.addr, salt), hexutil.MustDecode(reg.Signature))
		if err != nil {
			t.Fatal(err)
		}
		reg.Signature = hexutil.Encode(append(enc, common.FromHex("0x6492649264926492649264926492649264926492649264926492649264926492")...))
		return reg
	}

	t.Run("ErrNotOwner", func(t *testing.T) {
		_, err := svc.Register(ctx, wrap(registration(t, stranger, wallet, "counterfactual", nil, clock.t)), callerOf(stranger))
		wantErr(t, err, apperr.Unauthorized, "not signed by "+wallet.Hex())
	})
	t.Run("OK", func(t *testing.T) {
		rec, err := svc.Register(ctx, wrap(registration(t, owner, wallet, "counterfactual", nil, clock.t)), callerOf(owner))
		if err != nil {
			t.Fatal(err)
		}
		if rec.Owner() != wallet {
			t.Fatalf("owner %s, want the counterfactual wallet %s", rec.Owner(), wallet)
		}
		if code, _ := e.eth.CodeAt(ctx, wallet, nil); len(code) != 0 {
			t.Fatal("the check deployed the wallet; ERC-6492 validation must only simulate it")
		}
	})
	t.Run("ErrNoNode", func(t *testing.T) {
		svc, clock := MustService(t, storetest.MustOpenSQLite(t), SignatureVerifier{})
		_, err := svc.Register(ctx, wrap(registration(t, owner, wallet, "counterfactual", nil, clock.t)), callerOf(owner))
		wantErr(t, err, apperr.Unauthorized, "not signed by")
	})
}

// A Latch account's second name of the day (its key's smart account, after
// the key's own address) waits for the next day.
func TestService_AccountDailyLimit(t *testing.T) {
	e := newChainEnv(t)
	owner := newSigner(t)
	factory, salt := e.deploy(walletFactoryArtifact), [32]byte{3}
	out, err := e.eth.CallContract(context.Background(), ethereum.CallMsg{To: &factory, Data: mustPack(t, walletFactoryArtifact, "walletAddress", owner.addr, salt)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wallet := common.BytesToAddress(out)
	e.send(&factory, mustPack(t, walletFactoryArtifact, "deploy", owner.addr, salt))
	svc, clock := MustService(t, storetest.MustOpenSQLite(t), e.verifier(), e.factoryAccounts(factory, salt), func(c *Config) { c.AccountDaily = 1 })
	ctx := context.Background()
	account := callerOf(owner)
	if _, err := svc.Register(ctx, registration(t, owner, owner.addr, "owner-key", nil, clock.t), account); err != nil {
		t.Fatal(err)
	}
	_, err = svc.Register(ctx, registration(t, owner, wallet, "owner-wallet", nil, clock.t), account)
	wantErr(t, err, apperr.RateLimited, "Your account may register 1 name a day; try again in 24 h")
	clock.t = clock.t.Add(24 * time.Hour)
	rec, err := svc.Register(ctx, registration(t, owner, wallet, "owner-wallet", nil, clock.t), account)
	if err != nil || rec.Owner() != wallet {
		t.Fatalf("a day later: %+v, %v", rec, err)
	}
}

func mustPack(t *testing.T, a *contracts.Artifact, method string, args ...any) []byte {
	t.Helper()
	b, err := a.ABI.Pack(method, args...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustType(t *testing.T, name string) abi.Type {
	t.Helper()
	ty, err := abi.NewType(name, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return ty
}

// ensEnv is a dev chain with an ENS registry whose testZone is resolved by
// an OffchainResolver sending clients to a gateway served by httptest.
type ensEnv struct {
	*chainEnv
	svc      *Service
	clock    *testClock
	registry common.Address
	resolver common.Address
	gateway  *httptest.Server
}

// newENSEnv registers nothing yet; the gateway signs with gatewayKey at
// the time gatewayNow gives, and the resolver trusts trusted.
func newENSEnv(t *testing.T, gatewayKey *ecdsa.PrivateKey, trusted common.Address, gatewayNow func() time.Time) *ensEnv {
	t.Helper()
	e := &ensEnv{chainEnv: newChainEnv(t)}
	e.svc, e.clock = MustService(t, storetest.MustOpenSQLite(t), nil)
	mux := http.NewServeMux()
	mux.Handle("GET "+GatewayPath, NewGateway(e.svc, gatewayKey, gatewayNow))
	e.gateway = httptest.NewServer(mux)
	t.Cleanup(e.gateway.Close)
	e.resolver = e.deploy(offchainResolverArtifact, GatewayURL(e.gateway.URL), []common.Address{trusted})
	e.registry = e.deploy(ensRegistryArtifact)
	data, _ := ensRegistryArtifact.ABI.Pack("setResolver", ens.Namehash(testZone), e.resolver)
	e.send(&e.registry, data)
	return e
}

// call is an eth_call; a revert's error carries its data (rpc.DataError).
func (e *ensEnv) call(to common.Address, a *contracts.Artifact, method string, args ...any) ([]any, error) {
	data, err := a.ABI.Pack(method, args...)
	if err != nil {
		e.t.Fatal(err)
	}
	out, err := e.eth.CallContract(context.Background(), ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		return nil, err
	}
	return a.ABI.Unpack(method, out)
}

// revertData is the data of a reverted eth_call.
func revertData(t *testing.T, err error) []byte {
	t.Helper()
	var de rpc.DataError
	if !errors.As(err, &de) {
		t.Fatalf("error %v carries no revert data", err)
	}
	s, _ := de.ErrorData().(string)
	b, derr := hexutil.Decode(s)
	if derr != nil || len(b) < 4 {
		t.Fatalf("revert data %v", de.ErrorData())
	}
	return b
}

// resolverOf finds the resolver of name as ENSIP-10 says: the registry's
// resolver of the name or, if none, of its nearest ancestor.
func (e *ensEnv) resolverOf(name string) common.Address {
	e.t.Helper()
	for n := name; n != ""; {
		out, err := e.call(e.registry, ensRegistryArtifact, "resolver", ens.Namehash(n))
		if err != nil {
			e.t.Fatal(err)
		}
		if r := out[0].(common.Address); r != (common.Address{}) {
			return r
		}
		_, n, _ = strings.Cut(n, ".")
	}
	e.t.Fatalf("no resolver for %s", name)
	return common.Address{}
}

// resolve is an ENS client's wildcard resolution with CCIP-Read: call
// resolve(name, call) on the resolver, follow its OffchainLookup to the
// gateway, and hand the gateway's answer to the callback. tamper, when
// set, changes the answer on its way.
func (e *ensEnv) resolve(name string, call []byte, tamper func([]byte) []byte) ([]byte, error) {
	e.t.Helper()
	resolver := e.resolverOf(name)
	_, err := e.call(resolver, offchainResolverArtifact, "resolve", ens.EncodeDNSName(name), call)
	if err == nil {
		e.t.Fatal("resolve did not revert with OffchainLookup")
	}
	data := revertData(e.t, err)
	lookup := offchainResolverArtifact.ABI.Errors["OffchainLookup"]
	if [4]byte(data[:4]) != [4]byte(lookup.ID[:4]) {
		e.t.Fatalf("resolve reverted with %x, not OffchainLookup", data[:4])
	}
	args, err := lookup.Inputs.Unpack(data[4:])
	if err != nil {
		e.t.Fatal(err)
	}
	sender, urls, callData, callback, extra := args[0].(common.Address), args[1].([]string), args[2].([]byte), args[3].([4]byte), args[4].([]byte)
	if sender != resolver || len(urls) != 1 || callback != [4]byte(offchainResolverArtifact.ABI.Methods["resolveWithProof"].ID) {
		e.t.Fatalf("OffchainLookup(%s, %v, _, %x)", sender, urls, callback)
	}
	url := strings.NewReplacer("{sender}", strings.ToLower(sender.Hex()), "{data}", hexutil.Encode(callData)).Replace(urls[0])
	resp, err := http.Get(url)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct{ Data, Message string }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		e.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("gateway: %d %s", resp.StatusCode, body.Message)
	}
	answer, err := hexutil.Decode(body.Data)
	if err != nil {
		e.t.Fatal(err)
	}
	if tamper != nil {
		answer = tamper(answer)
	}
	out, err := e.call(resolver, offchainResolverArtifact, "resolveWithProof", answer, extra)
	if err != nil {
		return nil, err
	}
	return out[0].([]byte), nil
}

// wantRevert fails unless err is a revert with the resolver's error name.
func wantRevert(t *testing.T, err error, name string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no revert; want %s", name)
	}
	data := revertData(t, err)
	id := offchainResolverArtifact.ABI.Errors[name].ID
	if [4]byte(data[:4]) != [4]byte(id[:4]) {
		t.Fatalf("reverted with %x; want %s", data[:4], name)
	}
}

func TestGateway_OnChain(t *testing.T) {
	key, _ := crypto.GenerateKey()
	signerAddr := crypto.PubkeyToAddress(key.PublicKey)
	e := newENSEnv(t, key, signerAddr, time.Now)
	alice := newSigner(t)
	if _, err := e.svc.Register(context.Background(), registration(t, alice, alice.addr, "alice", map[string]string{"avatar": "https://example.com/a.png"}, e.clock.t), callerOf(alice)); err != nil {
		t.Fatal(err)
	}
	pack := func(method string, args ...any) []byte {
		b, err := gatewayABI.Pack(method, args...)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	node := ens.Namehash("alice.latch.test")

	t.Run("Addr", func(t *testing.T) {
		out, err := e.resolve("alice.latch.test", pack("addr", node), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := common.BytesToAddress(out); got != alice.addr {
			t.Fatalf("addr = %s, want %s", got, alice.addr)
		}
	})
	t.Run("AddrCoinType", func(t *testing.T) {
		for _, ct := range []int64{60, 0x80000000 | devChainID, 0x80000000} {
			out, err := e.resolve("alice.latch.test", pack("addr0", node, big.NewInt(ct)), nil)
			if err != nil {
				t.Fatal(err)
			}
			vals, _ := gatewayABI.Methods["addr0"].Outputs.Unpack(out)
			if got := vals[0].([]byte); common.BytesToAddress(got) != alice.addr || len(got) != 20 {
				t.Fatalf("addr(node, %d) = %x", ct, got)
			}
		}
		out, err := e.resolve("alice.latch.test", pack("addr0", node, big.NewInt(0x80000000|10)), nil)
		if vals, _ := gatewayABI.Methods["addr0"].Outputs.Unpack(out); err != nil || len(vals[0].([]byte)) != 0 {
			t.Fatalf("addr on a chain not registered: %x, %v", out, err)
		}
	})
	t.Run("TextCaseInsensitiveName", func(t *testing.T) {
		out, err := e.resolve("Alice.latch.test", pack("text", node, "avatar"), nil)
		if err != nil {
			t.Fatal(err)
		}
		vals, _ := gatewayABI.Methods["text"].Outputs.Unpack(out)
		if vals[0].(string) != "https://example.com/a.png" {
			t.Fatalf("avatar %q", vals[0])
		}
	})
	t.Run("Unregistered", func(t *testing.T) {
		out, err := e.resolve("nobody.latch.test", pack("addr", ens.Namehash("nobody.latch.test")), nil)
		if err != nil || common.BytesToAddress(out) != (common.Address{}) {
			t.Fatalf("addr of an unregistered name %x, %v", out, err)
		}
	})
	t.Run("ErrNodeMismatch", func(t *testing.T) {
		_, err := e.resolve("alice.latch.test", pack("addr", ens.Namehash("bob.latch.test")), nil)
		if err == nil || !strings.Contains(err.Error(), "gateway: 400") {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ErrTampered", func(t *testing.T) {
		mallory := newSigner(t)
		_, err := e.resolve("alice.latch.test", pack("addr", node), func(answer []byte) []byte {
			vals, _ := gatewayABI.Methods["resolve"].Outputs.Unpack(answer)
			forged, _ := gatewayABI.Methods["addr"].Outputs.Pack(mallory.addr)
			out, _ := gatewayABI.Methods["resolve"].Outputs.Pack(forged, vals[1], vals[2])
			return out
		})
		wantRevert(t, err, "UnknownSigner")
	})
	t.Run("ErrUntrustedSigner", func(t *testing.T) {
		other, _ := crypto.GenerateKey()
		e2 := newENSEnv(t, other, signerAddr, time.Now)
		_, err := e2.resolve("alice.latch.test", pack("addr", node), nil)
		wantRevert(t, err, "UnknownSigner")
	})
	t.Run("ErrExpired", func(t *testing.T) {
		e2 := newENSEnv(t, key, signerAddr, func() time.Time { return time.Now().Add(-AnswerTTL - time.Minute) })
		_, err := e2.resolve("alice.latch.test", pack("addr", node), nil)
		wantRevert(t, err, "ResponseExpired")
	})
	t.Run("ErrNoKey", func(t *testing.T) {
		e2 := newENSEnv(t, nil, signerAddr, time.Now)
		_, err := e2.resolve("alice.latch.test", pack("addr", node), nil)
		if err == nil || !strings.Contains(err.Error(), "gateway: 503") {
			t.Fatalf("err %v", err)
		}
	})
}
