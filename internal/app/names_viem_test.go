package app_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// TestNames_ViemResolves runs viem's getEnsAddress and getEnsText (through
// testdata/ens-viem.mjs) against latchd dev's chains: a name registered
// with latchd resolves through the universal resolver, CCIP-Read and the
// gateway exactly as on mainnet. It needs node and web/node_modules
// (npm ci in web/); without them it skips.
func TestNames_ViemResolves(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	web, _ := filepath.Abs("../../web")
	if _, err := os.Stat(filepath.Join(web, "node_modules", "viem", "package.json")); err != nil {
		t.Skip("viem is not installed (npm ci in web/)")
	}
	script, _ := filepath.Abs("testdata/ens-viem.mjs")

	m := MustRunMain(t, "")
	c := client{t, m.APIURL()}
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey)
	msg, _ := json.Marshal(map[string]any{"name": "viemuser.latch.test", "attributes": map[string]string{"avatar": "https://example.com/v.png"}, "timestamp": time.Now().Unix()})
	sig, _ := crypto.Sign(accounts.TextHash(msg), key)
	sig[64] += 27
	body, _ := json.Marshal(map[string]any{"coin_type": 0x80000000 | 31337, "address": addr.Hex(), "message": string(msg), "signature": hexutil.Encode(sig)})
	c.want(c.do("POST", "/v1/profile/account?projectId="+m.DevProjectID, string(body), devSession(t, m, "viem@example.com")...), 200)

	for _, ch := range m.Devnet.Chains() {
		t.Run(ch.CAIPNetworkID, func(t *testing.T) {
			cmd := exec.Command(node, script)
			cmd.Env = append(os.Environ(), "WEB_DIR="+web,
				fmt.Sprintf("CHAIN_ID=%d", ch.ChainID), "RPC_URL="+ch.RPCURL, "UNIVERSAL_RESOLVER="+ch.ENSUniversalResolver.Hex(),
				"NAME=viemuser.latch.test", "MISSING=nobody.latch.test")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("node: %v\n%s", err, stderr.String())
			}
			var got struct {
				Address, Avatar      string
				CoinAddress, Missing *string
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("script output %q: %v", out, err)
			}
			if got.Address != addr.Hex() || got.Avatar != "https://example.com/v.png" || got.Missing != nil {
				t.Fatalf("viem resolved %+v; want %s with its avatar, and null for the missing name", got, addr.Hex())
			}
			// The address under the chain's own coin type (ENSIP-11) is given
			// for the chain the name was registered on only.
			registeredHere := ch.ChainID == 31337
			if registeredHere != (got.CoinAddress != nil && strings.EqualFold(*got.CoinAddress, addr.Hex())) {
				t.Fatalf("address for coin type 0x80000000|%d: %v", ch.ChainID, got.CoinAddress)
			}
		})
	}
}
