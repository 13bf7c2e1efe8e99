// Command licenses checks the licences of the third-party code Latch ships
// and generates THIRD_PARTY_NOTICES from them:
//
//   - the Go modules linked into latchd (the production build, and the dev
//     build for the check): each module's licence file, classified with
//     github.com/google/licensecheck, must be on the OSI allowlist below;
//   - no Go file linked into the production build may carry a GPL (not LGPL)
//     licence header;
//   - the npm packages the production binary embeds (the embedded-wallet
//     frame's bundle) and those @latchkit/core, @latchkit/react and
//     @latchkit/appkit-compat bring into an app's bundle, with their licence
//     texts from web/node_modules;
//   - the third-party artwork latchd embeds (the icons in data/icons), with
//     its licence text;
//   - every published npm package ships the root LICENSE.
//
// Usage, from the repository (make notices, make test):
//
//	go -C scripts/licenses run . -write   regenerate THIRD_PARTY_NOTICES
//	go -C scripts/licenses run . -check   fail when a licence is not allowed or the file is stale
//
// It lives in a module of its own so that licensecheck is not a dependency
// of latchd's module.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// noticesFile is the generated file, at the repository's root.
const noticesFile = "THIRD_PARTY_NOTICES"

func main() {
	write := flag.Bool("write", false, "regenerate "+noticesFile)
	check := flag.Bool("check", false, "fail when a licence is not allowed or "+noticesFile+" is stale")
	flag.Parse()
	if *write == *check || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: licenses -write | -check")
		os.Exit(2)
	}
	if err := run(*write); err != nil {
		fmt.Fprintln(os.Stderr, "licenses:", err)
		os.Exit(1)
	}
}

func run(write bool) error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	prod, err := goModules(root, build{name: "production"})
	if err != nil {
		return err
	}
	dev, err := goModules(root, build{name: "dev", tags: "devchain"})
	if err != nil {
		return err
	}
	gpl, err := gplFiles(root, build{name: "production"})
	if err != nil {
		return err
	}
	// The dev build may link GPL files (it is not distributed; docs/licences.md): say which.
	devGPL, err := gplFiles(root, build{name: "dev", tags: "devchain"})
	if err != nil {
		return err
	}
	frame, err := npmClosure(filepath.Join(root, "web"), "packages/frame")
	if err != nil {
		return err
	}
	widget, err := npmClosure(filepath.Join(root, "web"), "packages/core", "packages/react", "packages/appkit-compat")
	if err != nil {
		return err
	}

	assets, err := iconAssets(root)
	if err != nil {
		return err
	}

	var problems []string
	for _, a := range assets {
		problems = append(problems, a.problems()...)
	}
	for _, m := range append(append([]module(nil), prod.modules...), dev.modules...) {
		problems = append(problems, m.problems()...)
	}
	for _, f := range gpl {
		problems = append(problems, "the production build links "+f+", whose header names the GPL")
	}
	for _, p := range append(append([]npmPackage(nil), frame...), widget...) {
		problems = append(problems, p.problems()...)
	}
	published, err := publishedLicenceProblems(root)
	if err != nil {
		return err
	}
	problems = append(problems, published...)
	if len(problems) > 0 {
		return fmt.Errorf("%d problem(s):\n  %s", len(problems), strings.Join(dedupe(problems), "\n  "))
	}
	for _, f := range devGPL {
		fmt.Printf("note: the dev build (not distributed) links %s, whose header names the GPL\n", f)
	}
	fmt.Printf("licences: %d Go modules in the production build, %d in the dev build, %d npm packages in the frame and %d in the widget's bundle: all allowed; no GPL file linked\n",
		len(prod.modules), len(dev.modules), len(frame), len(widget))

	text := notices(prod, frame, assets, widget)
	path := filepath.Join(root, noticesFile)
	if write {
		if err := os.WriteFile(path, text, 0o644); err != nil {
			return err
		}
		fmt.Printf("wrote %s (%d bytes)\n", noticesFile, len(text))
		return nil
	}
	if err := checkNotices(path, text); err != nil {
		return err
	}
	fmt.Printf("%s is up to date\n", noticesFile)
	return nil
}

// checkNotices fails when the file at path is not text.
func checkNotices(path string, text []byte) error {
	have, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%w (make notices writes it)", err)
	}
	if !bytes.Equal(have, text) {
		return fmt.Errorf("%s is stale: a dependency or its licence changed; run make notices and commit the file", noticesFile)
	}
	return nil
}

// repoRoot is the nearest directory above the working directory whose
// go.mod is latchd's module.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(b, []byte("module github.com/latchkit/latch\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("not inside the latch repository (no go.mod of github.com/latchkit/latch above the working directory)")
		}
		dir = parent
	}
}

func dedupe(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
