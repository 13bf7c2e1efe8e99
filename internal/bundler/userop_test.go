package bundler

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

const fullOp = `{"sender":"0x1111111111111111111111111111111111111111","nonce":"0x0","factory":"0x2222222222222222222222222222222222222222","factoryData":"0x01",
"callData":"0x","callGasLimit":"0x1","verificationGasLimit":"0x2","preVerificationGas":"0x3","maxFeePerGas":"0x5","maxPriorityFeePerGas":"0x4",
"paymaster":"0x3333333333333333333333333333333333333333","paymasterVerificationGasLimit":"0x6","paymasterPostOpGasLimit":"0x7","paymasterData":"0xaa","signature":"0xbb"}`

func without(t *testing.T, field string, set map[string]any) string {
	t.Helper()
	var m map[string]any
	json.Unmarshal([]byte(fullOp), &m)
	delete(m, field)
	for k, v := range set {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func TestParseUserOperation(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		op, err := ParseUserOperation(json.RawMessage(fullOp), false)
		if err != nil {
			t.Fatal(err)
		}
		if op.CallGasLimit != 1 || op.PaymasterPostOpGasLimit != 7 || *op.Factory != common.HexToAddress("0x2222222222222222222222222222222222222222") {
			t.Fatalf("parsed %+v", op)
		}
		// Round trip through the ERC-7769 form keeps the hash.
		b, _ := json.Marshal(op)
		again, err := ParseUserOperation(b, false)
		if err != nil || again.Hash(common.Address{9}, 1) != op.Hash(common.Address{9}, 1) {
			t.Fatalf("round trip: %s, %v", b, err)
		}
		p := op.Pack()
		if len(p.InitCode) != 21 || len(p.PaymasterAndData) != 53 || p.AccountGasLimits[15] != 2 || p.AccountGasLimits[31] != 1 || p.GasFees[15] != 4 || p.GasFees[31] != 5 {
			t.Fatalf("packed %+v", p)
		}
	})
	for _, tt := range []struct {
		name, json, want string
		partial          bool
	}{
		{"NoSender", without(t, "sender", nil), "sender is required", false},
		{"NoSignature", without(t, "signature", nil), "signature is required", false},
		{"NoGas", without(t, "callGasLimit", nil), "callGasLimit is required", false},
		{"FactoryWithoutData", without(t, "factoryData", nil), "factory and factoryData", false},
		{"PaymasterFieldsWithoutPaymaster", without(t, "paymaster", nil), "without a paymaster", false},
		{"PaymasterWithoutGas", without(t, "paymasterPostOpGasLimit", nil), "paymasterPostOpGasLimit is required", false},
		{"TipAboveFee", without(t, "", map[string]any{"maxPriorityFeePerGas": "0x6"}), "above maxFeePerGas", false},
		{"FeeTooLarge", without(t, "", map[string]any{"maxFeePerGas": "0x1000000000000000000000000000000"}), "out of range", false},
		{"GasTooLarge", without(t, "", map[string]any{"callGasLimit": "0x10000000000000000"}), "out of range", false},
		{"BadHex", without(t, "", map[string]any{"callData": "0xzz"}), "invalid UserOperation", false},
		{"BadAddress", without(t, "", map[string]any{"sender": "0x12"}), "invalid UserOperation", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseUserOperation(json.RawMessage(tt.json), tt.partial)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
	t.Run("PartialForEstimates", func(t *testing.T) {
		op, err := ParseUserOperation(json.RawMessage(`{"sender":"0x1111111111111111111111111111111111111111","nonce":"0x1","callData":"0x"}`), true)
		if err != nil || op.MaxFeePerGas.Sign() != 0 || op.Signature != nil || op.Nonce.Cmp(big.NewInt(1)) != 0 {
			t.Fatalf("%+v, %v", op, err)
		}
	})
}

func TestRequiredPreVerificationGas_SignatureContentFree(t *testing.T) {
	op, _ := ParseUserOperation(json.RawMessage(fullOp), false)
	a := requiredPreVerificationGas(op)
	op.Signature = make([]byte, len(op.Signature)) // zeros cost less in calldata, but not here
	if b := requiredPreVerificationGas(op); a != b {
		t.Fatalf("%d != %d", a, b)
	}
	op.CallData = make([]byte, 100)
	if c := requiredPreVerificationGas(op); c <= a {
		t.Fatalf("longer callData costs %d <= %d", c, a)
	}
}
