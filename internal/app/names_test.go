package app_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	gethrpc "github.com/ethereum/go-ethereum/rpc"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/ens"
)

// nameRegistration is the body of POST /v1/profile/account: name signed
// now by key on the first dev chain.
func nameRegistration(t *testing.T, key *ecdsa.PrivateKey, name string) string {
	t.Helper()
	msg, _ := json.Marshal(map[string]any{"name": name, "attributes": map[string]string{}, "timestamp": time.Now().Unix()})
	sig, err := crypto.Sign(accounts.TextHash(msg), key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	body, _ := json.Marshal(map[string]any{"coin_type": 0x80000000 | 31337, "address": crypto.PubkeyToAddress(key.PublicKey).Hex(), "message": string(msg), "signature": hexutil.Encode(sig)})
	return string(body)
}

var gatewayCallABI = func() abi.ABI {
	a, err := abi.JSON(strings.NewReader(`[
		{"name":"resolve","type":"function","inputs":[{"name":"name","type":"bytes"},{"name":"data","type":"bytes"}],"outputs":[{"name":"","type":"bytes"}]},
		{"name":"addr","type":"function","inputs":[{"name":"node","type":"bytes32"}],"outputs":[{"name":"","type":"address"}]}
	]`))
	if err != nil {
		panic(err)
	}
	return a
}()

// gatewayData is the callData an OffchainResolver sends the gateway for
// the addr record of name.
func gatewayData(t *testing.T, name string) string {
	t.Helper()
	inner, _ := gatewayCallABI.Pack("addr", ens.Namehash(name))
	outer, err := gatewayCallABI.Pack("resolve", ens.EncodeDNSName(name), inner)
	if err != nil {
		t.Fatal(err)
	}
	return hexutil.Encode(outer)
}

// namesCalls are TestOpenAPI_Responses's calls of the names routes.
func namesCalls(t *testing.T, m *app.Main, pid string) []call {
	alice, _ := crypto.GenerateKey()
	mallory, _ := crypto.GenerateKey()
	aliceAddr := crypto.PubkeyToAddress(alice.PublicKey).Hex()
	stranger := crypto.PubkeyToAddress(mallory.PublicKey).Hex()
	forged := nameRegistration(t, mallory, "forged")
	forged = strings.Replace(forged, stranger, aliceAddr, 1)
	sender := "/v1/names/gateway/0x" + strings.Repeat("ab", 20) + "/"
	session := devSession(t, m, "names-openapi@example.com")
	return []call{
		{op: "POST /v1/profile/account", url: "/v1/profile/account?" + pid, body: nameRegistration(t, alice, "contract.latch.test"), hdr: session},
		{op: "POST /v1/profile/account", url: "/v1/profile/account?" + pid, body: nameRegistration(t, alice, "c0ntract.latch.test"), hdr: session},
		{op: "POST /v1/profile/account", url: "/v1/profile/account?" + pid, body: nameRegistration(t, mustKey(t), "other.latch.test"), hdr: session},
		{op: "POST /v1/profile/account", url: "/v1/profile/account?" + pid, body: nameRegistration(t, mallory, "contract.latch.test")},
		{op: "POST /v1/profile/account", url: "/v1/profile/account?" + pid, body: nameRegistration(t, mallory, "abc.latch.test")},
		{op: "POST /v1/profile/account", url: "/v1/profile/account?" + pid, body: forged},
		{op: "POST /v1/profile/account", url: "/v1/profile/account", body: nameRegistration(t, mallory, "mallory")},
		{op: "POST /v1/profile/account", url: "/v1/profile/account?" + pid, body: `{"coin_type":`},
		{op: "GET /v1/profile/account/{name}", url: "/v1/profile/account/contract.latch.test?apiVersion=2&" + pid},
		{op: "GET /v1/profile/account/{name}", url: "/v1/profile/account/nobody.latch.test?apiVersion=2&" + pid},
		{op: "GET /v1/profile/account/{name}", url: "/v1/profile/account/nobody.latch.test?" + pid},
		{op: "GET /v1/profile/account/{name}", url: "/v1/profile/account/a_b?" + pid},
		{op: "GET /v1/profile/reverse/{address}", url: "/v1/profile/reverse/" + aliceAddr + "?sender=" + aliceAddr + "&apiVersion=2&" + pid},
		{op: "GET /v1/profile/reverse/{address}", url: "/v1/profile/reverse/" + stranger + "?apiVersion=2&" + pid},
		{op: "GET /v1/profile/reverse/{address}", url: "/v1/profile/reverse/" + stranger + "?" + pid},
		{op: "GET /v1/profile/reverse/{address}", url: "/v1/profile/reverse/nope?" + pid},
		{op: "GET /v1/profile/suggestions/{name}", url: "/v1/profile/suggestions/contract?zone=latch.test&" + pid},
		{op: "GET /v1/profile/suggestions/{name}", url: "/v1/profile/suggestions/abc?" + pid},
		{op: "GET /v1/profile/suggestions/{name}", url: "/v1/profile/suggestions/c0ntract?" + pid},
		{op: "GET /v1/profile/suggestions/{name}", url: "/v1/profile/suggestions/admin?" + pid},
		{op: "GET /v1/profile/suggestions/{name}", url: "/v1/profile/suggestions/contract"},
		{op: "GET /v1/names/gateway/{sender}/{data}", url: sender + gatewayData(t, "contract.latch.test") + ".json"},
		{op: "GET /v1/names/gateway/{sender}/{data}", url: sender + gatewayData(t, "contract.eth")},
		{op: "GET /v1/names/gateway/{sender}/{data}", url: sender + "0x9061b923" + strings.Repeat("00", 3)},
		{op: "GET /v1/names/gateway/{sender}/{data}", url: sender + "0x1234abcd.json"},
		{op: "GET /v1/names/gateway/{sender}/{data}", url: sender + "nothex"},
	}
}

// ccipResolveAddr resolves name's address on a dev chain as an ENS client
// does: the registry's resolver of the name or its nearest parent
// (ENSIP-10), its OffchainLookup revert followed to the gateway URL it
// names, and the gateway's answer checked by the resolver's callback.
func ccipResolveAddr(t *testing.T, rpcURL string, registry common.Address, name string) common.Address {
	t.Helper()
	ctx := context.Background()
	eth, err := ethclient.Dial(rpcURL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	registryABI := contracts.MustLoad("DevENSRegistry").ABI
	resolverABI := contracts.MustLoad("OffchainResolver").ABI
	call := func(to common.Address, data []byte) ([]byte, error) {
		return eth.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
	}
	var resolver common.Address
	for n := name; n != "" && resolver == (common.Address{}); {
		data, _ := registryABI.Pack("resolver", ens.Namehash(n))
		out, err := call(registry, data)
		if err != nil {
			t.Fatal(err)
		}
		resolver = common.BytesToAddress(out)
		_, n, _ = strings.Cut(n, ".")
	}
	if resolver == (common.Address{}) {
		t.Fatalf("no resolver for %s", name)
	}
	inner, _ := gatewayCallABI.Pack("addr", ens.Namehash(name))
	data, _ := resolverABI.Pack("resolve", ens.EncodeDNSName(name), inner)
	_, err = call(resolver, data)
	var de gethrpc.DataError
	if err == nil || !errors.As(err, &de) {
		t.Fatalf("resolve: %v, want an OffchainLookup revert", err)
	}
	revert := hexutil.MustDecode(de.ErrorData().(string))
	lookup := resolverABI.Errors["OffchainLookup"]
	args, err := lookup.Inputs.Unpack(revert[4:])
	if err != nil {
		t.Fatal(err)
	}
	urls, callData, extra := args[1].([]string), args[2].([]byte), args[4].([]byte)
	url := strings.NewReplacer("{sender}", strings.ToLower(resolver.Hex()), "{data}", hexutil.Encode(callData)).Replace(urls[0])
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var answer struct{ Data string }
	if resp.StatusCode != 200 || json.Unmarshal(body, &answer) != nil {
		t.Fatalf("gateway %s: %d %s", url, resp.StatusCode, body)
	}
	data, _ = resolverABI.Pack("resolveWithProof", hexutil.MustDecode(answer.Data), extra)
	out, err := call(resolver, data)
	if err != nil {
		t.Fatalf("resolveWithProof: %v", err)
	}
	vals, err := resolverABI.Unpack("resolveWithProof", out)
	if err != nil {
		t.Fatal(err)
	}
	return common.BytesToAddress(vals[0].([]byte))
}

func TestNames_DevChainsResolveThroughLatchd(t *testing.T) {
	m := MustRunMain(t, "")
	c := client{t, m.APIURL()}
	pid := "projectId=" + m.DevProjectID
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey)
	// Looked up before it has a name: identity caches "no name" for 5 minutes,
	// which the registration must replace.
	c.want(c.do("GET", "/v1/identity/"+addr.Hex()+"?"+pid, ""), 200, `"name":null`)
	c.want(c.do("POST", "/v1/profile/account?"+pid, nameRegistration(t, key, "newcomer.latch.test"), devSession(t, m, "newcomer@example.com")...), 200, `"name":"newcomer.latch.test"`)

	for _, ch := range m.Devnet.Chains() {
		t.Run(ch.CAIPNetworkID, func(t *testing.T) {
			if got := ccipResolveAddr(t, ch.RPCURL, ch.ENSRegistry, "newcomer.latch.test"); got != addr {
				t.Fatalf("newcomer.latch.test resolves to %s on chain, want %s", got, addr)
			}
			if got := ccipResolveAddr(t, ch.RPCURL, ch.ENSRegistry, "nobody.latch.test"); got != (common.Address{}) {
				t.Fatalf("an unregistered name resolves to %s", got)
			}
		})
	}

	t.Run("IdentityFallsBackToNames", func(t *testing.T) {
		r := c.do("GET", "/v1/identity/"+addr.Hex()+"?"+pid, "")
		c.want(r, 200, `"name":"newcomer.latch.test"`)
		other := crypto.PubkeyToAddress(mustKey(t).PublicKey).Hex()
		c.want(c.do("GET", "/v1/identity/"+other+"?"+pid, ""), 200, `"name":null`)
	})
}

func mustKey(t *testing.T) *ecdsa.PrivateKey {
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestNames_Flags(t *testing.T) {
	t.Run("Errors", func(t *testing.T) {
		for _, args := range [][]string{
			{"--names-zone", "latch"},
			{"--names-zone", "Latch.Test"},
			{"--names-gateway-key", "0x1234"},
			{"--names-gateway-key", strings.Repeat("zz", 32)},
		} {
			_, err := app.ParseConfig(args, nil)
			if err == nil || !strings.Contains(err.Error(), args[0]) {
				t.Errorf("%v: err %v, want one naming %s", args, err, args[0])
			}
			if err != nil && strings.Contains(err.Error(), args[1]) && args[0] == "--names-gateway-key" {
				t.Errorf("the error repeats the key: %v", err)
			}
		}
	})
	t.Run("ZoneAndKey", func(t *testing.T) {
		key := mustKey(t)
		cfg, err := app.ParseConfig([]string{"--names-zone", "names.example.com", "--names-gateway-key", hexutil.Encode(crypto.FromECDSA(key))}, nil)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Dev, cfg.Addr, cfg.FrameAddr, cfg.AdminAddr, cfg.DataDir = true, "127.0.0.1:0", "127.0.0.1:0", "", t.TempDir()
		cfg.DevChains, cfg.ShutdownTimeout = []uint64{31337}, 5*time.Second
		m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err := m.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		if m.Names().Zone() != "names.example.com" || m.NamesGatewaySigner() != crypto.PubkeyToAddress(key.PublicKey) {
			t.Fatalf("zone %s, signer %s", m.Names().Zone(), m.NamesGatewaySigner())
		}
		c := client{t, m.APIURL()}
		pid := "projectId=" + m.DevProjectID
		bob, session := mustKey(t), devSession(t, m, "bob@example.com")
		c.want(c.do("POST", "/v1/profile/account?"+pid, nameRegistration(t, bob, "bobby.latch.test"), session...), 400, "not a name of the zone names.example.com")
		c.want(c.do("POST", "/v1/profile/account?"+pid, nameRegistration(t, bob, "bobby.names.example.com"), session...), 200)
		ch := m.Devnet.Chains()[0]
		if got := ccipResolveAddr(t, ch.RPCURL, ch.ENSRegistry, "bobby.names.example.com"); got != crypto.PubkeyToAddress(bob.PublicKey) {
			t.Fatalf("resolved %s", got)
		}
	})
	t.Run("RegistrationsRateLimited", func(t *testing.T) {
		cfg, err := app.ParseConfig([]string{"--account-rate-limit", "1"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Dev, cfg.Addr, cfg.FrameAddr, cfg.AdminAddr, cfg.DataDir = true, "127.0.0.1:0", "127.0.0.1:0", "", t.TempDir()
		cfg.DevChains, cfg.ShutdownTimeout = []uint64{31337}, 5*time.Second
		m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err := m.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		c := client{t, m.APIURL()}
		pid := "projectId=" + m.DevProjectID
		c.want(c.do("POST", "/v1/profile/account?"+pid, nameRegistration(t, mustKey(t), "first.latch.test"), devSession(t, m, "first@example.com")...), 200)
		// The second attempt within the minute is refused before anything else (its session too).
		c.want(c.do("POST", "/v1/profile/account?"+pid, nameRegistration(t, mustKey(t), "second.latch.test")), 429, "name registrations")
		// Lookups are not registrations.
		c.want(c.do("GET", "/v1/profile/account/first.latch.test?"+pid, ""), 200)
	})
	t.Run("ServeWithoutZone", func(t *testing.T) {
		cfg, err := app.ParseConfig(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Names.Zone != "" {
			t.Fatalf("default zone %q; latchd serve has none unless set", cfg.Names.Zone)
		}
	})
}
