//go:build !race

package relay_test

// raceEnabled: the race detector multiplies memory, so RSS bounds do not apply.
const raceEnabled = false
