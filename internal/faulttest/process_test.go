package faulttest_test

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/relay"
	"github.com/latchkit/latch/internal/store"
)

// SIGTERM drain and SIGKILL durability, on real `latchd serve` processes:
// this test binary run again with nodeEnv set (TestMain). The cluster test
// (deploy/cluster_linux_test.go) kills a Postgres+Redis node mid-stream and
// checks no relay message is lost; these check what a single node owes
// its clients when it is stopped or killed.

// nodeEnv, set in a child's environment, makes the test binary run
// `latchd serve` (configured by its LATCH_* variables) instead of tests.
const nodeEnv = "LATCH_FAULTTEST_NODE"

// processRelayURL is the relay's public URL the children are given; relay
// tokens name it as their audience.
const processRelayURL = "wss://relay.faulttest.example"

func TestMain(m *testing.M) {
	if os.Getenv(nodeEnv) != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := app.CLI(ctx, []string{"serve"}, os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// process is a latchd serve child.
type process struct {
	cmd    *exec.Cmd
	api    string
	exited chan struct{}
	err    error // of Wait, once exited is closed
	mu     sync.Mutex
	out    strings.Builder
}

// startProcess runs latchd serve with environ (LATCH_* settings beyond the
// suite's own) and waits until it serves.
func startProcess(t *testing.T, environ ...string) *process {
	t.Helper()
	key := func() string {
		b := make([]byte, 32)
		rand.Read(b)
		return "k1:" + base64.StdEncoding.EncodeToString(b)
	}
	p := &process{exited: make(chan struct{})}
	p.cmd = exec.Command(os.Args[0])
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "LATCH_") || strings.HasPrefix(e, "LATCH_TEST_") {
			p.cmd.Env = append(p.cmd.Env, e)
		}
	}
	p.cmd.Env = append(p.cmd.Env, nodeEnv+"=1",
		"LATCH_ADDR=127.0.0.1:0", "LATCH_FRAME_ADDR=127.0.0.1:0", "LATCH_ADMIN_ADDR=127.0.0.1:0",
		"LATCH_RELAY_URL="+processRelayURL, "LATCH_AUTH_SECRET="+randomHex(32), "LATCH_AUTH_KEK="+key(), "LATCH_AUTH_RECOVERY_KEY="+key(),
		"LATCH_LOG_FORMAT=json", "LATCH_LOG_LEVEL=info", "LATCH_SHUTDOWN_TIMEOUT=5s", "LATCH_RPC_PROBE_INTERVAL=0")
	p.cmd.Env = append(p.cmd.Env, environ...)
	// A child outlives no test binary, however that ends.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stderr = p.cmd.Stdout
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.out.WriteString(line + "\n")
			p.mu.Unlock()
			var rec map[string]any
			if json.Unmarshal([]byte(line), &rec) == nil && rec["msg"] == "latchd ready" {
				api, _ := rec["api"].(string)
				ready <- api
			}
		}
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.exited
		if t.Failed() {
			t.Logf("latchd output:\n%s", p.output())
		}
	})
	select {
	case p.api = <-ready:
	case <-p.exited:
		t.Fatalf("latchd exited before serving (%v):\n%s", p.err, p.output())
	case <-time.After(time.Minute):
		t.Fatalf("latchd did not start:\n%s", p.output())
	}
	return p
}

func (p *process) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// wait waits for the process to exit, failing after limit.
func (p *process) wait(t *testing.T, limit time.Duration) {
	t.Helper()
	select {
	case <-p.exited:
	case <-time.After(limit):
		t.Fatalf("latchd did not exit within %v:\n%s", limit, p.output())
	}
}

// newSQLiteProject creates the SQLite database of a data dir with one
// project (analytics on), as `latchd project create` would, and returns
// the project's id.
func newSQLiteProject(t *testing.T, dir string) string {
	t.Helper()
	db, err := store.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p := &project.Project{Name: "Process test", Origins: []string{"https://dapp.example"}, Features: project.DefaultFeatures(), Analytics: true}
	if err := project.NewService(db).Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return p.ID
}

// postBatch posts n track events with fresh ids, from a client address of
// its own (X-Forwarded-For, trusted from loopback: the telemetry limit is
// per address), and returns the ids and the status.
func postBatch(api, projectID string, n int) ([]string, int, error) {
	ids := make([]string, n)
	events := make([]map[string]any, n)
	for i := range events {
		ids[i] = newUUID()
		events[i] = map[string]any{
			"eventId": ids[i], "url": "https://dapp.example/", "domain": "dapp.example", "timestamp": time.Now().UnixMilli(),
			"props": map[string]any{"type": "track", "event": "MODAL_OPEN", "properties": map[string]any{}},
		}
	}
	b, _ := json.Marshal(events)
	req, _ := http.NewRequest("POST", api+"/batch?projectId="+projectID, strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	ip := make([]byte, 3)
	rand.Read(ip)
	req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", ip[0], ip[1], ip[2]))
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return ids, resp.StatusCode, nil
}

// SIGKILL of a SQLite node in the middle of a telemetry burst: every event
// acknowledged before the kill is in the database afterwards, and the
// database is intact.
func TestProcess_SigkillKeepsAcknowledgedEvents(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	projectID := newSQLiteProject(t, dir)
	p := startProcess(t, "LATCH_DATA_DIR="+dir, "LATCH_IP_RATE_LIMIT=0", "LATCH_TRUSTED_PROXIES=127.0.0.1/32")

	var mu sync.Mutex
	var acked []string
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				ids, status, err := postBatch(p.api, projectID, 20)
				if err != nil {
					return // the kill
				}
				if status == http.StatusNoContent || status == http.StatusAccepted {
					mu.Lock()
					acked = append(acked, ids...)
					mu.Unlock()
				}
			}
		}()
	}
	waitFor(t, 30*time.Second, "a burst under way", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(acked) >= 2000
	})
	p.cmd.Process.Kill()
	p.wait(t, 10*time.Second)
	close(stop)
	wg.Wait()

	db, err := store.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatalf("reopen after SIGKILL: %v", err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRow(context.Background(), `PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check after SIGKILL: %q %v", check, err)
	}
	stored := map[string]bool{}
	rows, err := db.Query(context.Background(), `SELECT event_id FROM events WHERE project_id = ?`, projectID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		rows.Scan(&id)
		stored[id] = true
	}
	rows.Close()
	lost := 0
	for _, id := range acked {
		if !stored[id] {
			lost++
		}
	}
	t.Logf("%d events acknowledged before SIGKILL, %d stored, %d lost", len(acked), len(stored), lost)
	if lost > 0 {
		t.Fatalf("%d of %d acknowledged events lost", lost, len(acked))
	}
}

// SIGTERM drains: a relay socket is closed with 1001 (going away, so the
// client reconnects elsewhere), telemetry buffered while Postgres was away
// is written before the process exits, and it exits cleanly within its
// shutdown timeout.
func TestProcess_SigtermDrains(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := startProcess(t, "LATCH_DATABASE_URL="+e.pgURL, "LATCH_REDIS_URL="+e.redisURL, "LATCH_DATA_DIR="+t.TempDir(),
		"LATCH_TRUSTED_PROXIES=127.0.0.1/32",
		"LATCH_DATABASE_STATEMENT_TIMEOUT="+dbTimeout.String(), "LATCH_DATABASE_POOL_TIMEOUT="+dbTimeout.String(), "LATCH_DATABASE_CONNECT_TIMEOUT="+dbTimeout.String())

	_, key, _ := ed25519.GenerateKey(rand.Reader)
	q := url.Values{"auth": {relay.SignToken(key, "s", processRelayURL, time.Now(), time.Hour)}, "projectId": {e.project}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(p.api, "http")+"/?"+q.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	closed := make(chan error, 1)
	go func() {
		for {
			if _, _, err := ws.Read(context.Background()); err != nil {
				closed <- err
				return
			}
		}
	}()

	// Telemetry accepted into memory while Postgres is stalled.
	e.pg.Stall()
	var buffered []string
	for i := 0; i < 5; i++ {
		ids, status, err := postBatch(p.api, e.project, 10)
		if err != nil {
			t.Fatal(err)
		}
		if status != http.StatusAccepted && status != http.StatusNoContent {
			t.Fatalf("telemetry with Postgres stalled: %d", status)
		}
		buffered = append(buffered, ids...)
	}
	e.pg.Restore()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-closed:
		if websocket.CloseStatus(err) != websocket.StatusGoingAway {
			t.Errorf("relay socket closed with %v, want 1001 (going away)", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("relay socket not closed within 10 s of SIGTERM")
	}
	p.wait(t, 10*time.Second)
	if p.err != nil {
		t.Errorf("latchd exited with %v after SIGTERM", p.err)
	}
	if got := e.storedEvents(buffered); got != len(buffered) {
		t.Fatalf("%d of %d acknowledged telemetry events stored after SIGTERM", got, len(buffered))
	}
	if out := p.output(); !strings.Contains(out, `"msg":"shutting down"`) {
		t.Errorf("no shutdown logged:\n%s", out)
	}
}
