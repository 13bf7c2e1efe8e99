package names

import "strings"

// Skeleton is the confusable skeleton of a normalised label (UTS #39 §4,
// skeleton(X) = NFD(map(NFD(X)))): two labels with the same skeleton look
// alike, and only the first of them may be registered.
//
// Labels are ASCII (NormalizeLabel), where NFD changes nothing, so the
// skeleton is the character map of Unicode's confusables.txt restricted to
// the entries whose source is ASCII. The whole of that subset is:
//
//	0022 "  → 0027 0027 ''   not a label character
//	0030 0  → 004F O         applied: 0 looks like o
//	0031 1  → 006C l         applied: 1 looks like l
//	0049 I  → 006C l         never reached: a label is lower-cased first, and i is not in the table
//	0060 `  → 0027 '         not a label character
//	006D m  → 0072 006E rn   applied: m looks like rn
//	007C |  → 006C l         not a label character
//
// Labels are case-insensitive, so the skeleton is compared case-folded: the
// prototype O is o. Pairs such as vv/w, cl/d, 5/s and i/l have no entry in the
// table and are not confusable here. The result is kept in names.skeleton and
// name_reserved.skeleton, and migration 014 computes the same map in SQL
// (nested REPLACE) for the names registered before it.
func Skeleton(label string) string {
	return skeletonReplacer.Replace(label)
}

// skeletonReplacer applies the three mappings in one pass; no mapping's
// output is another's input, so one pass is the fixed point.
var skeletonReplacer = strings.NewReplacer("0", "o", "1", "l", "m", "rn")
