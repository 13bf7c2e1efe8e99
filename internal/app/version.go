package app

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// Set at link time by the Makefile (-ldflags "-X github.com/latchkit/latch/internal/app.version=…");
// empty in a plain `go build`, where Build falls back to what the Go
// toolchain records in the binary.
var (
	version   string
	commit    string
	buildDate string
)

// BuildInfo says which latchd this is.
type BuildInfo struct {
	Version string // the release, e.g. "0.1.0"; "devel" when unknown
	Commit  string // the source's git commit; "unknown" when not recorded
	// Date is when the binary was built (set by the Makefile), else the
	// time of its commit; "unknown" when neither was recorded.
	Date       string
	DateSource string // "build", "commit" or ""
	Modified   bool   // built from a work tree with uncommitted changes (as the toolchain recorded)
	GoVersion  string // e.g. "go1.26.8"
	Platform   string // GOOS/GOARCH
	DevChains  bool   // latchd dev can start dev chains (the dev build)
}

// Build returns this binary's BuildInfo: the values set at link time,
// completed from runtime/debug.ReadBuildInfo (vcs.revision, vcs.time,
// vcs.modified, the main module's version).
func Build() BuildInfo {
	info, _ := debug.ReadBuildInfo()
	return buildInfoFrom(version, commit, buildDate, info)
}

func buildInfoFrom(version, commit, date string, info *debug.BuildInfo) BuildInfo {
	b := BuildInfo{Version: version, Commit: commit, Date: date, GoVersion: runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH, DevChains: devChains != nil}
	if date != "" {
		b.DateSource = "build"
	}
	if info != nil {
		b.GoVersion = info.GoVersion
		if b.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = info.Main.Version
		}
		var revision, modified string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.time":
				if b.Date == "" {
					b.Date, b.DateSource = s.Value, "commit"
				}
			case "vcs.modified":
				modified = s.Value
			}
		}
		if b.Commit == "" {
			b.Commit = revision
			b.Modified = modified == "true"
		}
	}
	if b.Version == "" {
		b.Version = "devel"
	}
	if b.Commit == "" {
		b.Commit = "unknown"
	}
	if b.Date == "" {
		b.Date = "unknown"
	}
	return b
}

// printVersion writes `latchd version`'s answer.
func printVersion(w io.Writer, b BuildInfo) {
	fmt.Fprintf(w, "latchd %s\n", b.Version)
	c := b.Commit
	if b.Modified {
		c += " (with uncommitted changes)"
	}
	fmt.Fprintf(w, "  commit:      %s\n", c)
	if b.DateSource == "commit" {
		fmt.Fprintf(w, "  committed:   %s\n", b.Date)
	} else {
		fmt.Fprintf(w, "  built:       %s\n", b.Date)
	}
	fmt.Fprintf(w, "  go:          %s %s\n", b.GoVersion, b.Platform)
	if b.DevChains {
		fmt.Fprintln(w, "  dev chains:  yes (dev build)")
	} else {
		fmt.Fprintln(w, "  dev chains:  no (production build)")
	}
}
