package decimal

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/latchkit/latch/internal/apperr"
)

func TestParse(t *testing.T) {
	usd := Field{Name: "usd", Label: "usd", Example: "1.00"}
	for _, tc := range []struct {
		field    Field
		in       string
		decimals int
		want     string // base units, or the error message
		ok       bool
	}{
		{Amount, "1.5", 18, "1500000000000000000", true},
		{Amount, "0.000000001", 9, "1", true},
		{Amount, "7", 0, "7", true},
		{Amount, "10.", 2, `Amount must be a positive decimal number such as 1.5, not "10."`, false},
		{usd, "1.00", 8, "100000000", true},
		{Amount, "", 18, "Amount is required", false},
		{Amount, strings.Repeat("1", MaxLength+1), 18, "Amount is longer than 80 characters", false},
		{Amount, "-1", 18, `Amount must be a positive decimal number such as 1.5, not "-1"`, false},
		{Amount, ".5", 18, `Amount must be a positive decimal number such as 1.5, not ".5"`, false},
		{Amount, "1e3", 18, `Amount must be a positive decimal number such as 1.5, not "1e3"`, false},
		{usd, "x", 8, `usd must be a positive decimal number such as 1.00, not "x"`, false},
		{Amount, "0.0000000001", 9, "Amount has more than 9 decimal places", false},
		{Amount, "0.000", 6, "Amount must be greater than zero", false},
	} {
		got, err := Parse(tc.field, tc.in, tc.decimals)
		if tc.ok {
			if err != nil || got.Cmp(mustInt(tc.want)) != 0 {
				t.Errorf("Parse(%q, %d) = %v, %v; want %s", tc.in, tc.decimals, got, err, tc.want)
			}
			continue
		}
		var e *apperr.Error
		if !errors.As(err, &e) || e.Code != apperr.Invalid || e.Field != tc.field.Name || e.Message != tc.want {
			t.Errorf("Parse(%q) error = %#v; want %s on %s: %q", tc.in, err, apperr.Invalid, tc.field.Name, tc.want)
		}
	}
}

func TestClip(t *testing.T) {
	if got := Clip(strings.Repeat("é", 60)); got != strings.Repeat("é", 50)+"…" {
		t.Errorf("Clip(60 runes) = %q", got)
	}
	if got := Clip("a\xffb"); got != "a?b" {
		t.Errorf("Clip(invalid UTF-8) = %q", got)
	}
}

func mustInt(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return v
}
