package base58

import (
	"bytes"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		raw []byte
		enc string
	}{
		{[]byte("hello world"), "StV1DL6CwTryKyV"},
		{[]byte{0, 0, 1}, "112"},
		{[]byte{0}, "1"},
	} {
		if got := Encode(tc.raw); got != tc.enc {
			t.Errorf("Encode(%x) = %q, want %q", tc.raw, got, tc.enc)
		}
		got, err := Decode(tc.enc)
		if err != nil || !bytes.Equal(got, tc.raw) {
			t.Errorf("Decode(%q) = %x, %v; want %x", tc.enc, got, err, tc.raw)
		}
	}
}

func TestDecode_Refuses(t *testing.T) {
	for _, s := range []string{"", "0OIl", string(make([]byte, 129))} {
		if _, err := Decode(s); err == nil {
			t.Errorf("Decode(%q) succeeded", s)
		}
	}
}
