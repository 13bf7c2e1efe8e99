// Package names is Latch's own account names: one zone per deployment (for
// example latch.test), names registered by a message the account signs, looked
// up forward and in reverse through the AppKit profile API (/v1/profile), and
// resolved by any ENS client through an offchain resolver gateway (ERC-3668
// CCIP-Read with ENSIP-10 wildcard resolution).
package names

import (
	"fmt"
	"strings"

	"github.com/latchkit/latch/internal/apperr"
)

// MinLabelLength is the shortest name (spec §5: at least 4 characters).
const MinLabelLength = 4

// MaxLabelLength is the longest label a DNS-encoded ENS name can carry.
const MaxLabelLength = 63

// NormalizeLabel returns the label of a name in its normal form, or an
// apperr.Invalid error saying which rule it breaks.
//
// Spec §5 allows letters, digits and hyphens. Latch takes the ASCII ones:
// for them ENSIP-15 normalisation is lower-casing, and its only further rule
// is that a label must not have "--" as its third and fourth characters
// (reserved for punycode, "xn--"). Non-ASCII letters would need the full
// ENSIP-15 tables (confusables, mixed scripts), so they are refused rather
// than half-normalised.
func NormalizeLabel(raw string) (string, error) {
	label := strings.ToLower(strings.TrimSpace(raw))
	if label == "" {
		return "", apperr.Fieldf(apperr.Invalid, "name", "A name is required")
	}
	for _, r := range label {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			if r == '.' {
				return "", apperr.Fieldf(apperr.Invalid, "name", "A name is one label, without dots")
			}
			return "", apperr.Fieldf(apperr.Invalid, "name", "A name may only contain letters, digits and hyphens, not %q", r)
		}
	}
	if len(label) < MinLabelLength {
		return "", apperr.Fieldf(apperr.Invalid, "name", "A name must be at least %d characters", MinLabelLength)
	}
	if len(label) > MaxLabelLength {
		return "", apperr.Fieldf(apperr.Invalid, "name", "A name must be at most %d characters", MaxLabelLength)
	}
	if label[2:4] == "--" {
		return "", apperr.Fieldf(apperr.Invalid, "name", "A name must not have hyphens as its third and fourth characters")
	}
	return label, nil
}

// SplitName returns the label of a full name in zone ("alice.latch.test" →
// "alice"); a bare label is accepted as it is. The label is normalised.
func SplitName(name, zone string) (string, error) {
	lower := strings.ToLower(strings.TrimSpace(name))
	if label, ok := strings.CutSuffix(lower, "."+zone); ok {
		return NormalizeLabel(label)
	}
	if strings.Contains(lower, ".") {
		return "", apperr.Fieldf(apperr.Invalid, "name", "%q is not a name of the zone %s", clip(name), zone)
	}
	return NormalizeLabel(lower)
}

// ValidateZone checks a --names-zone value: two or more labels of ASCII
// letters, digits and hyphens, lower case.
func ValidateZone(zone string) error {
	if zone == "" || zone != strings.ToLower(zone) {
		return fmt.Errorf("zone %q must be a lower-case domain name", zone)
	}
	labels := strings.Split(zone, ".")
	if len(labels) < 2 {
		return fmt.Errorf("zone %q must have at least two labels (e.g. latch.test)", zone)
	}
	for _, l := range labels {
		if l == "" || len(l) > MaxLabelLength || strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-") {
			return fmt.Errorf("zone %q has an invalid label %q", zone, l)
		}
		for _, r := range l {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
				return fmt.Errorf("zone %q has an invalid label %q", zone, l)
			}
		}
	}
	return nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
