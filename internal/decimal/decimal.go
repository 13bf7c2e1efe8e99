// Package decimal reads the positive decimal amounts the dev services take in
// whole units ("1.5 ETH", "0.25 SOL", "1.00 USD") into base units, exactly:
// integer arithmetic on the digits, since a float would round an 18-decimal
// amount. Errors are apperr field errors that name the request's field.
package decimal

import (
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/latchkit/latch/internal/apperr"
)

// MaxLength bounds the text before any arithmetic on it.
const MaxLength = 80

// Field describes the request field an amount comes from, for its errors:
// Name is the field ("amount"), Label how messages start ("Amount"), Example
// a valid value ("1.5").
type Field struct {
	Name, Label, Example string
}

// Amount is the request field "amount" of the faucets.
var Amount = Field{Name: "amount", Label: "Amount", Example: "1.5"}

// Parse converts s, a positive decimal with at most `decimals` places, to
// base units (s × 10^decimals).
func Parse(f Field, s string, decimals int) (*big.Int, error) {
	if s == "" {
		return nil, apperr.Fieldf(apperr.Invalid, f.Name, "%s is required", f.Label)
	}
	if len(s) > MaxLength {
		return nil, apperr.Fieldf(apperr.Invalid, f.Name, "%s is longer than %d characters", f.Label, MaxLength)
	}
	whole, frac, hasDot := strings.Cut(s, ".")
	if !digits(whole) || (hasDot && !digits(frac)) {
		return nil, apperr.Fieldf(apperr.Invalid, f.Name, "%s must be a positive decimal number such as %s, not %q", f.Label, f.Example, Clip(s))
	}
	if len(frac) > decimals {
		return nil, apperr.Fieldf(apperr.Invalid, f.Name, "%s has more than %d decimal places", f.Label, decimals)
	}
	v, _ := new(big.Int).SetString(whole+frac+strings.Repeat("0", decimals-len(frac)), 10)
	if v.Sign() == 0 {
		return nil, apperr.Fieldf(apperr.Invalid, f.Name, "%s must be greater than zero", f.Label)
	}
	return v, nil
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Clip shortens user input echoed in an error message to 50 characters,
// invalid UTF-8 replaced.
func Clip(s string) string {
	s = strings.ToValidUTF8(s, "?")
	if utf8.RuneCountInString(s) > 50 {
		return string([]rune(s)[:50]) + "…"
	}
	return s
}
