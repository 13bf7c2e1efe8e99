package app_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/app"
)

// TestBundler_Viem runs viem's bundler and paymaster clients (through
// testdata/aa-viem.mjs) against latchd dev: stub data, gas estimate,
// paymaster data, signature, send and receipt in viem's own order and
// encodings. It needs node and web/node_modules; without them it skips.
func TestBundler_Viem(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	web, _ := filepath.Abs("../../web")
	if _, err := os.Stat(filepath.Join(web, "node_modules", "viem", "package.json")); err != nil {
		t.Skip("viem is not installed (npm ci in web/)")
	}
	script, _ := filepath.Abs("testdata/aa-viem.mjs")
	m := runBundlerMain(t, app.BundlerConfig{Dev: true})
	nw := m.Info().Networks[0]
	url := m.APIURL() + "/v1?chainId=" + nw.CAIPNetworkID + "&projectId=" + m.DevProjectID

	key, _ := crypto.GenerateKey()
	owner := crypto.PubkeyToAddress(key.PublicKey)
	factoryABI := contracts.MustLoad("LatchSmartAccountFactory").ABI
	data, _ := factoryABI.Pack("getAddress", owner, big.NewInt(0))
	var out hexutil.Bytes
	mustResult(t, rpcCall(t, url, "eth_call", map[string]any{"to": nw.SmartAccountFactory, "data": hexutil.Bytes(data)}, "latest"), &out)
	sender := common.BytesToAddress(out)
	c := client{t: t, base: m.APIURL()}
	c.want(c.do("POST", "/dev/faucet", `{"address":"`+sender.Hex()+`","caipNetworkId":"`+nw.CAIPNetworkID+`","amount":"0.01"}`), 200)

	to := common.HexToAddress("0x00000000000000000000000000000000000b0b05")
	cmd := exec.Command(node, script)
	cmd.Env = append(os.Environ(), "WEB_DIR="+web, fmt.Sprintf("CHAIN_ID=%d", nw.ChainID), "LATCHD_RPC="+url,
		"ENTRY_POINT="+nw.EntryPoint, "FACTORY="+nw.SmartAccountFactory, "OWNER_KEY="+hexutil.Encode(crypto.FromECDSA(key)), "TO="+to.Hex())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	res, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var got struct {
		Sender    string
		Success   bool
		Paymaster string
		Deployed  bool
	}
	if err := json.Unmarshal(res, &got); err != nil {
		t.Fatalf("script output %q: %v", res, err)
	}
	if !strings.EqualFold(got.Sender, sender.Hex()) || !got.Success || !got.Deployed || !strings.EqualFold(got.Paymaster, nw.VerifyingPaymaster) {
		t.Fatalf("viem: %+v", got)
	}
	var bal hexutil.Big
	mustResult(t, rpcCall(t, url, "eth_getBalance", to, "latest"), &bal)
	if bal.ToInt().Cmp(big.NewInt(1e15)) != 0 {
		t.Fatalf("recipient holds %s, want 0.001 ether", bal.ToInt())
	}
}
