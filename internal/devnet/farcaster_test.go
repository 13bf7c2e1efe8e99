package devnet

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/devchain"
)

func TestFarcasterIDRegistry(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, info := range shared.Chains() {
		if info.FarcasterIDRegistry != FarcasterIDRegistryAddress {
			t.Fatalf("%s: registry %s, want %s", info.CAIPNetworkID, info.FarcasterIDRegistry, FarcasterIDRegistryAddress)
		}
		client := MustDial(t, info)
		call := func(method string, arg any) []any {
			data, err := farcasterIDRegistryArtifact.ABI.Pack(method, arg)
			if err != nil {
				t.Fatal(err)
			}
			out, err := client.CallContract(ctx, ethereum.CallMsg{To: &FarcasterIDRegistryAddress, Data: data}, nil)
			if err != nil {
				t.Fatal(err)
			}
			v, err := farcasterIDRegistryArtifact.ABI.Unpack(method, out)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		if got := call("custodyOf", big.NewInt(devchain.DevFarcasterFID))[0].(common.Address); got != DevFarcasterCustody.Address {
			t.Errorf("custodyOf(%d) = %s, want the dev custody %s", devchain.DevFarcasterFID, got, DevFarcasterCustody.Address)
		}
		if got := call("idOf", DevFarcasterCustody.Address)[0].(*big.Int); got.Int64() != devchain.DevFarcasterFID {
			t.Errorf("idOf(dev custody) = %s", got)
		}
		if got := call("custodyOf", big.NewInt(2))[0].(common.Address); got != (common.Address{}) {
			t.Errorf("custodyOf(2) = %s, want none", got)
		}
	}
}
