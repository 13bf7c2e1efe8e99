package devnet

import (
	"encoding/hex"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

func TestTestAccounts(t *testing.T) {
	accs := TestAccounts()
	if len(accs) != 10 {
		t.Fatalf("len = %d, want 10", len(accs))
	}
	// The addresses every Hardhat/Anvil user knows.
	want := map[int]string{
		0: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		1: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
		2: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
		9: "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
	}
	for i, addr := range want {
		if got := accs[i].Address; got != common.HexToAddress(addr) {
			t.Errorf("account %d = %s, want %s", i, got.Hex(), addr)
		}
	}
	if got := hex.EncodeToString(accs[0].Key.D.Bytes()); got != "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" {
		t.Errorf("account 0 key = %s", got)
	}
	// Callers get a copy; changing it must not change the next call's result.
	accs[0] = Account{}
	if TestAccounts()[0].Address != common.HexToAddress(want[0]) {
		t.Error("TestAccounts returned shared slice")
	}
}

// BIP-32 test vector 1 (master and m/0'/1 private keys).
func TestExtendedKey_Child(t *testing.T) {
	seed, _ := hex.DecodeString("000102030405060708090a0b0c0d0e0f")
	m, err := newMasterKey(seed)
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(m.key.Bytes()); got != "e8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35" {
		t.Fatalf("master = %s", got)
	}
	c, err := m.child(0 + hardened)
	if err != nil {
		t.Fatal(err)
	}
	if c, err = c.child(1); err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(c.key.Bytes()); got != "3c6cb8d0f6a264c91ea8b5030fadaa8e538b020f0a387421a12de9319dc93368" {
		t.Fatalf("m/0'/1 = %s", got)
	}
}
