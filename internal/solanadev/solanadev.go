// Package solanadev runs latchd dev's local Solana network: the Node package
// web/packages/solana-devnet (LiteSVM behind a Solana JSON-RPC and WebSocket
// server) as a child process on a free local port. latchd registers it as a
// solana network whose upstream is that server.
//
// The child lives as long as its Network: Close stops it (SIGTERM, then
// SIGKILL after a grace period), and it exits by itself when latchd's end of
// its stdin closes, so a latchd killed without Close leaves nothing running.
package solanadev

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// PackageDir is where the Node package sits in the repository.
const PackageDir = "web/packages/solana-devnet"

// entry is the server script inside the package.
const entry = "src/server.mjs"

// JournalFile is the journal of executed transactions in latchd's data dir,
// replayed at every start so the dev network keeps its state.
const JournalFile = "solana-devnet.jsonl"

// Config configures Start.
type Config struct {
	// Dir is the Node package's directory; "" searches for PackageDir from the
	// working directory and the executable's directory upwards (FindPackage).
	Dir string
	// Node is the Node.js executable (a name looked up in PATH, or a path); default "node".
	Node string
	// Host is the interface the server listens on; default 127.0.0.1.
	Host string
	// DataDir holds the journal; "" keeps the network in memory only.
	DataDir string
	// StartTimeout bounds the wait for the server to listen; default 60 s.
	StartTimeout time.Duration
	// Logger receives the child's stderr lines; default slog.Default().
	Logger *slog.Logger
}

// Info is what the running server reports when it is ready.
type Info struct {
	RPCURL        string   `json:"rpcUrl"`
	WSURL         string   `json:"wsUrl"`
	GenesisHash   string   `json:"genesisHash"`
	CAIPNetworkID string   `json:"caipNetworkId"`
	Accounts      []string `json:"accounts"`
	USDCMint      string   `json:"usdcMint"`
	USDCDecimals  int      `json:"usdcDecimals"`
	// Replayed counts the journal entries replayed at start.
	Replayed int `json:"replayed"`
}

// Network is a running Solana dev network.
type Network struct {
	Info Info

	cmd       *exec.Cmd
	stdin     io.WriteCloser
	exited    chan struct{}
	waitErr   error
	closeOnce sync.Once
}

// UnavailableError says why the dev network cannot run on this machine (no
// Node.js, the package or its dependencies missing): latchd dev starts
// without Solana and logs it.
type UnavailableError struct{ Reason string }

func (e *UnavailableError) Error() string { return e.Reason }

// FindPackage returns the first directory holding PackageDir's server,
// looking in each parent of the working directory and of the executable's
// directory. Errors: *UnavailableError when there is none.
func FindPackage() (string, error) {
	var roots []string
	if wd, err := os.Getwd(); err == nil {
		roots = append(roots, wd)
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		roots = append(roots, filepath.Dir(exe))
	}
	for _, root := range roots {
		for dir := root; ; dir = filepath.Dir(dir) {
			candidate := filepath.Join(dir, PackageDir)
			if _, err := os.Stat(filepath.Join(candidate, entry)); err == nil {
				return candidate, nil
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return "", &UnavailableError{Reason: fmt.Sprintf("the package %s was not found above the working directory or latchd's executable (--dev-solana-dir names it)", PackageDir)}
}

// check verifies that node and the package's dependencies are there, so the
// reason for a missing network is clear before anything starts.
func check(cfg *Config) error {
	node, err := exec.LookPath(cfg.Node)
	if err != nil {
		return &UnavailableError{Reason: fmt.Sprintf("Node.js (%s) was not found: %v; install Node.js 20 or later", cfg.Node, err)}
	}
	cfg.Node = node
	if _, err := os.Stat(filepath.Join(cfg.Dir, entry)); err != nil {
		return &UnavailableError{Reason: fmt.Sprintf("%s has no %s", cfg.Dir, entry)}
	}
	// npm workspaces hoist dependencies to web/node_modules; a standalone
	// install keeps them in the package's own node_modules.
	for dir := cfg.Dir; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", "litesvm", "package.json")); err == nil {
			return nil
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return &UnavailableError{Reason: fmt.Sprintf("the npm package litesvm is not installed for %s; run `cd web && npm ci`", cfg.Dir)}
}

// Start starts the dev network and returns once it serves. Errors:
// *UnavailableError when Node.js or the package is missing; any other error
// when the server failed to start (its stderr is in the message).
func Start(ctx context.Context, cfg Config) (*Network, error) {
	if cfg.Node == "" {
		cfg.Node = "node"
	}
	if cfg.Host == "" {
		cfg.Host = "127.0.0.1"
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 60 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Dir == "" {
		dir, err := FindPackage()
		if err != nil {
			return nil, err
		}
		cfg.Dir = dir
	}
	if err := check(&cfg); err != nil {
		return nil, err
	}
	args := []string{filepath.Join(cfg.Dir, entry), "--host", cfg.Host, "--port", "0", "--exit-on-stdin-close"}
	if cfg.DataDir != "" {
		if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
			return nil, fmt.Errorf("solana dev network: data dir: %w", err)
		}
		args = append(args, "--journal", filepath.Join(cfg.DataDir, JournalFile))
	}
	cmd := exec.Command(cfg.Node, args...)
	cmd.Dir = cfg.Dir
	// Its own process group, so a Ctrl-C in latchd's terminal reaches latchd
	// alone and latchd stops the network in order.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("solana dev network: start %s: %w", cfg.Node, err)
	}
	n := &Network{cmd: cmd, stdin: stdin, exited: make(chan struct{})}
	tail := &tailBuffer{max: 4 << 10}
	var logDone sync.WaitGroup
	logDone.Go(func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			tail.add(sc.Text())
			cfg.Logger.Warn("solana dev network: " + sc.Text())
		}
	})
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		if !sc.Scan() {
			ready <- errors.New("it exited before it was ready")
			return
		}
		var info struct {
			Ready bool `json:"ready"`
			Info
		}
		if err := json.Unmarshal(sc.Bytes(), &info); err != nil || !info.Ready {
			ready <- fmt.Errorf("its first line is not the ready line: %.200s", sc.Text())
			return
		}
		n.Info = info.Info
		ready <- nil
		io.Copy(io.Discard, stdout)
	}()
	go func() {
		logDone.Wait()
		n.waitErr = cmd.Wait()
		close(n.exited)
	}()
	timer := time.NewTimer(cfg.StartTimeout)
	defer timer.Stop()
	select {
	case err = <-ready:
	case <-timer.C:
		err = fmt.Errorf("it did not report ready within %s", cfg.StartTimeout)
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		n.Close()
		if t := tail.String(); t != "" {
			err = fmt.Errorf("%w; its stderr: %s", err, t)
		}
		return nil, fmt.Errorf("solana dev network (%s): %w", cfg.Dir, err)
	}
	if !strings.HasPrefix(n.Info.CAIPNetworkID, "solana:") || n.Info.RPCURL == "" {
		n.Close()
		return nil, fmt.Errorf("solana dev network: its ready line names no solana network: %+v", n.Info)
	}
	return n, nil
}

// closeGrace is how long the server gets to stop after SIGTERM.
const closeGrace = 5 * time.Second

// Close stops the server and waits for it. It is safe to call more than once.
func (n *Network) Close() error {
	n.closeOnce.Do(func() {
		n.stdin.Close()
		if n.cmd.Process != nil {
			n.cmd.Process.Signal(syscall.SIGTERM)
		}
		select {
		case <-n.exited:
		case <-time.After(closeGrace):
			n.cmd.Process.Kill()
			<-n.exited
		}
	})
	return nil
}

// Exited is closed when the server process has ended.
func (n *Network) Exited() <-chan struct{} { return n.exited }

// tailBuffer keeps the last bytes of the child's stderr for error messages.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (t *tailBuffer) add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.WriteString(line)
	t.buf.WriteByte('\n')
	if t.buf.Len() > t.max {
		b := t.buf.Bytes()
		b = b[len(b)-t.max:]
		t.buf.Reset()
		t.buf.Write(b)
	}
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(t.buf.String())
}
