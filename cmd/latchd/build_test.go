package main

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const geth = "github.com/ethereum/go-ethereum"

// nodeCode reports whether a package is part of an Ethereum node rather than
// of the client side latchd's account data uses (go-ethereum's common,
// crypto, rlp, abi, rpc, core/types): the chain database and state, the EVM,
// the transaction pool, consensus, the eth protocol, p2p, the node itself, and
// latchd's own in-process dev chains.
func nodeCode(pkg string) bool {
	if pkg == "github.com/latchkit/latch/internal/devnet" {
		return true
	}
	rest, ok := strings.CutPrefix(pkg, geth+"/")
	if !ok {
		return false
	}
	if rest == "core/types" || strings.HasPrefix(rest, "core/types/") || rest == "p2p/netutil" {
		return false
	}
	for _, tree := range []string{"core", "consensus", "eth", "ethdb", "miner", "node", "p2p", "trie", "triedb", "beacon/engine", "internal/ethapi"} {
		if rest == tree || strings.HasPrefix(rest, tree+"/") {
			return true
		}
	}
	return false
}

// goTool finds the go command, or skips the test.
func goTool(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not on PATH")
	}
	return gobin
}

// deps lists the packages latchd links when built with tags, as the
// Makefile builds it (CGO_ENABLED=0).
func deps(t *testing.T, tags string) []string {
	t.Helper()
	cmd := exec.Command(goTool(t), "list", "-deps", "-tags", tags, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps -tags %q: %v", tags, err)
	}
	return strings.Fields(string(out))
}

// TestProductionBuild_NoNodeCode: the production build (no tags) links no
// node code; the dev build (tag devchain) does, which shows the tag is what
// brings it in.
func TestProductionBuild_NoNodeCode(t *testing.T) {
	var node []string
	for _, p := range deps(t, "") {
		if nodeCode(p) {
			node = append(node, p)
		}
	}
	if len(node) > 0 {
		t.Fatalf("the production build links node code: %s", strings.Join(node, " "))
	}

	dev := strings.Join(deps(t, "devchain"), "\n") + "\n"
	for _, want := range []string{"github.com/latchkit/latch/internal/devnet", geth + "/core", geth + "/eth", geth + "/trie/bintrie"} {
		if !strings.Contains(dev, "\n"+want+"\n") {
			t.Errorf("the dev build does not link %s", want)
		}
	}
}

func TestNodeCode(t *testing.T) {
	for pkg, want := range map[string]bool{
		"github.com/latchkit/latch/internal/devnet": true,
		geth + "/core":                                true,
		geth + "/core/vm":                             true,
		geth + "/trie/bintrie":                        true,
		geth + "/p2p":                                 true,
		geth + "/p2p/enode":                           true,
		geth + "/eth/catalyst":                        true,
		geth + "/internal/ethapi":                     true,
		geth + "/core/types":                          false,
		geth + "/core/types/bal":                      false,
		geth + "/p2p/netutil":                         false,
		geth + "/ethclient":                           false,
		geth + "/rpc":                                 false,
		geth + "/ethereal":                            false,
		"github.com/latchkit/latch/internal/devchain": false,
	} {
		if got := nodeCode(pkg); got != want {
			t.Errorf("nodeCode(%s) = %v, want %v", pkg, got, want)
		}
	}
}

// TestProductionBinary builds latchd as `make build` does (static, version
// set by the linker) and runs it: latchd version prints what the linker set,
// and latchd dev refuses, saying how to get the dev build.
func TestProductionBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds latchd")
	}
	bin := filepath.Join(t.TempDir(), "latchd")
	const pkg = "github.com/latchkit/latch/internal/app"
	build := exec.Command(goTool(t), "build", "-trimpath", "-o", bin,
		"-ldflags", "-X "+pkg+".version=9.8.7 -X "+pkg+".commit=c0ffee -X "+pkg+".buildDate=2026-11-25T16:00:00Z", ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	f, err := elf.Open(bin)
	if err != nil {
		if runtime.GOOS == "linux" {
			t.Fatal(err)
		}
	} else {
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Error("latchd is dynamically linked (it has a program interpreter)")
			}
		}
		f.Close()
	}

	var out, errOut bytes.Buffer
	cmd := exec.Command(bin, "version")
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("latchd version: %v %s", err, errOut.String())
	}
	for _, want := range []string{"latchd 9.8.7\n", "commit:      c0ffee\n", "built:       2026-11-25T16:00:00Z\n", runtime.Version(), "dev chains:  no (production build)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("latchd version lacks %q:\n%s", want, out.String())
		}
	}

	out.Reset()
	errOut.Reset()
	cmd = exec.Command(bin, "dev", "--data-dir", t.TempDir(), "--addr", "127.0.0.1:0", "--frame-addr", "127.0.0.1:0", "--admin-addr", "")
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 || !strings.Contains(errOut.String(), "built without dev chains") || !strings.Contains(errOut.String(), "make build-dev") {
		t.Fatalf("latchd dev on the production build: %v, %q", err, errOut.String())
	}
}
