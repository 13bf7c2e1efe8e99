package devnet

import (
	"context"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/ens"
)

func TestSetNamesGateway(t *testing.T) {
	ctx := context.Background()
	d, err := Start(ctx, Config{ChainIDs: []uint64{31337, 31338}, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	signer := common.HexToAddress("0x00000000000000000000000000000000000051a9")
	const url = "http://127.0.0.1:8080/v1/names/gateway/{sender}/{data}.json"
	if err := d.SetNamesGateway(ctx, "latch.test", url, signer); err != nil {
		t.Fatal(err)
	}
	for _, c := range d.Chains() {
		t.Run(c.CAIPNetworkID, func(t *testing.T) {
			if c.ENSRegistry != ensRegistryAddress || c.NamesResolver == (common.Address{}) {
				t.Fatalf("registry %s, resolver %s", c.ENSRegistry, c.NamesResolver)
			}
			client := MustDial(t, c)
			call := func(to common.Address, a interface {
				Pack(string, ...any) ([]byte, error)
				Unpack(string, []byte) ([]any, error)
			}, method string, args ...any) any {
				data, err := a.Pack(method, args...)
				if err != nil {
					t.Fatal(err)
				}
				out, err := client.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
				if err != nil {
					t.Fatalf("%s: %v", method, err)
				}
				vals, err := a.Unpack(method, out)
				if err != nil {
					t.Fatalf("%s: %v", method, err)
				}
				return vals[0]
			}
			if got := call(c.ENSRegistry, &ensRegistryArtifact.ABI, "resolver", ens.Namehash("latch.test")); got != c.NamesResolver {
				t.Fatalf("registry resolver of latch.test = %v, want %s", got, c.NamesResolver)
			}
			if got := call(c.NamesResolver, &offchainResolverArtifact.ABI, "url"); got != url {
				t.Fatalf("resolver url %v", got)
			}
			if got := call(c.NamesResolver, &offchainResolverArtifact.ABI, "signers", signer); got != true {
				t.Fatalf("resolver does not trust the gateway's signer")
			}
		})
	}
}
