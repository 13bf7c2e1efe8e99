package ens

import (
	"bytes"
	"testing"
)

func TestNamehash(t *testing.T) {
	// EIP-137's examples.
	for name, want := range map[string]string{
		"":        "0x0000000000000000000000000000000000000000000000000000000000000000",
		"eth":     "0x93cdeb708b7545dc668eb9280176169d1c33cfd8ed6f04690a0bcc88a93fc4ae",
		"foo.eth": "0xde9b09fd7c5f901e23a3f19fecc54828e9c848539801e86591bd9801b019f84f",
	} {
		if got := Namehash(name).Hex(); got != want {
			t.Errorf("Namehash(%q) = %s, want %s", name, got, want)
		}
	}
}

func TestEncodeDNSName(t *testing.T) {
	if got, want := EncodeDNSName("alice.latch.test"), []byte("\x05alice\x05latch\x04test\x00"); !bytes.Equal(got, want) {
		t.Errorf("EncodeDNSName = %q, want %q", got, want)
	}
}
