package app

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestBuildInfo(t *testing.T) {
	recorded := &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Path: "github.com/latchkit/latch", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}

	t.Run("LinkerValues", func(t *testing.T) {
		b := buildInfoFrom("1.2.3", "feedbeef", "2026-11-25T16:00:00Z", recorded)
		if b.Version != "1.2.3" || b.Commit != "feedbeef" || b.Modified || b.Date != "2026-11-25T16:00:00Z" || b.DateSource != "build" || b.GoVersion != "go1.99.1" {
			t.Fatalf("%+v", b)
		}
	})
	t.Run("RecordedByToolchain", func(t *testing.T) {
		b := buildInfoFrom("", "", "", recorded)
		if b.Version != "devel" || b.Commit != "0123abcd" || !b.Modified || b.Date != "2026-01-02T03:04:05Z" || b.DateSource != "commit" {
			t.Fatalf("%+v", b)
		}
	})
	t.Run("ModuleVersion", func(t *testing.T) {
		b := buildInfoFrom("", "", "", &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Version: "v0.4.0"}})
		if b.Version != "v0.4.0" || b.Commit != "unknown" || b.Date != "unknown" || b.DateSource != "" {
			t.Fatalf("%+v", b)
		}
	})
	t.Run("Nothing", func(t *testing.T) {
		b := buildInfoFrom("", "", "", nil)
		if b.Version != "devel" || b.Commit != "unknown" || b.GoVersion != runtime.Version() || b.Platform != runtime.GOOS+"/"+runtime.GOARCH {
			t.Fatalf("%+v", b)
		}
	})
}

func TestCLI_Version(t *testing.T) {
	code, out, errOut := run(t, "version")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 5 || !strings.HasPrefix(lines[0], "latchd ") || !strings.Contains(out, runtime.Version()) {
		t.Fatalf("latchd version: exit %d, %q %q", code, out, errOut)
	}
	for _, want := range []string{"commit:", "go:", "dev chains:  yes (dev build)"} { // the tests register the dev chains
		if !strings.Contains(out, want) {
			t.Errorf("latchd version lacks %q: %q", want, out)
		}
	}
	if code, _, errOut := run(t, "version", "--json"); code != 1 || !strings.Contains(errOut, "takes no arguments") {
		t.Fatalf("latchd version --json: exit %d, %q", code, errOut)
	}
	if _, out, _ := run(t, "help"); !strings.Contains(out, "latchd version") || !strings.Contains(out, "latchd healthcheck") {
		t.Fatalf("usage does not name version and healthcheck: %s", out)
	}
}

// TestCLI_DevWithoutDevChains: a build that registers no dev chains (the
// production build) refuses latchd dev and says how to get them.
func TestCLI_DevWithoutDevChains(t *testing.T) {
	saved := devChains
	UseDevChains(nil)
	t.Cleanup(func() { UseDevChains(saved) })

	code, _, errOut := run(t, "dev", "--addr", "127.0.0.1:0", "--frame-addr", "127.0.0.1:0", "--admin-addr", "", "--data-dir", t.TempDir())
	if code != 1 || !strings.Contains(errOut, "built without dev chains") || !strings.Contains(errOut, "make build-dev") || !strings.Contains(errOut, "-tags devchain") {
		t.Fatalf("latchd dev without dev chains: exit %d, %q", code, errOut)
	}
	if _, out, _ := run(t, "version"); !strings.Contains(out, "dev chains:  no (production build)") {
		t.Fatalf("latchd version: %q", out)
	}
}
