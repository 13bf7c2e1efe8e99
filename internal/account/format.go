package account

import (
	"math"
	"math/big"
	"strings"
)

// formatUnits renders amount / 10^decimals exactly, without trailing zeros:
// (1500000, 6) → "1.5", (10^22, 18) → "10000".
func formatUnits(amount *big.Int, decimals int) string {
	if decimals <= 0 {
		return amount.String()
	}
	neg := amount.Sign() < 0
	s := new(big.Int).Abs(amount).String()
	if len(s) <= decimals {
		s = strings.Repeat("0", decimals-len(s)+1) + s
	}
	whole, frac := s[:len(s)-decimals], strings.TrimRight(s[len(s)-decimals:], "0")
	out := whole
	if frac != "" {
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	return out
}

// unitsFloat is amount / 10^decimals as a float, for fiat values.
func unitsFloat(amount *big.Int, decimals int) float64 {
	f := new(big.Float).SetInt(amount)
	if decimals > 0 {
		f.Quo(f, new(big.Float).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)))
	}
	v, _ := f.Float64()
	return v
}

// fiat rounds a USD figure to 4 decimal places, enough for any display and
// free of float noise such as 25.500000000000004.
func fiat(v float64) float64 {
	if math.Abs(v) > 1e14 {
		return v // beyond float64's exact cents anyway
	}
	return math.Round(v*1e4) / 1e4
}
