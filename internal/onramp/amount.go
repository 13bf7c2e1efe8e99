package onramp

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"

	"github.com/latchkit/latch/internal/apperr"
)

// decimalText is spec §5's decimal: optional minus, digits, optional dot and digits.
var decimalText = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

// maxDecimalLen bounds an amount's text; no fiat amount needs more.
const maxDecimalLen = 40

// parseDecimal reads s as an exact rational. Errors: apperr.Invalid with
// spec §5's message.
func parseDecimal(field, s string) (*big.Rat, error) {
	if len(s) > maxDecimalLen || !decimalText.MatchString(s) {
		return nil, apperr.Fieldf(apperr.Invalid, field, "Number `%s` is not a valid decimal number.", clip(s))
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, apperr.Fieldf(apperr.Invalid, field, "Number `%s` is not a valid decimal number.", clip(s))
	}
	return r, nil
}

// formatDecimal writes r with exactly places fraction digits, rounding
// down (an amount the visitor receives is never rounded up).
func formatDecimal(r *big.Rat, places int) string {
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(places)), nil)
	n := new(big.Int).Mul(r.Num(), scale)
	n.Quo(n, r.Denom()) // truncates toward zero
	neg := n.Sign() < 0
	digits := new(big.Int).Abs(n).String()
	if places > 0 {
		if len(digits) <= places {
			digits = strings.Repeat("0", places-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-places] + "." + digits[len(digits)-places:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}

// fiatPlaces is the number of fraction digits of fiat amounts.
const fiatPlaces = 2

// checkLimit refuses an amount outside [min, max] of a method.
func checkLimit(amount *big.Rat, currency string, l MethodLimit) error {
	lo, err1 := parseDecimal("min", l.Min)
	hi, err2 := parseDecimal("max", l.Max)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("onramp: limits of %s %s are not decimals: %q, %q", currency, l.ID, l.Min, l.Max)
	}
	if amount.Cmp(lo) < 0 || amount.Cmp(hi) > 0 {
		return apperr.Fieldf(apperr.Invalid, "amount", "Amount must be between %s and %s %s for %s", l.Min, l.Max, currency, methodLabel(l.ID))
	}
	return nil
}

// methodLabel names a payment method in messages.
func methodLabel(id string) string {
	switch id {
	case MethodCard:
		return "card"
	case MethodACH:
		return "ACH bank account"
	}
	return id
}

// clip shortens client text quoted in a message.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}
