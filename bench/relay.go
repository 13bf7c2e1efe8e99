package main

// The WalletConnect relay: memory per idle socket, and publish→delivery
// latency and throughput with 1,000 dapp–wallet pairs, measured against a
// `latchd dev` of its own (relay limits off, so the load generator on the same
// loopback address is not refused).

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"
	"github.com/latchkit/latch/internal/relay"
	"github.com/latchkit/latch/internal/sockio"
)

const (
	relayIdleConns = 10000
	relayPairs     = 1000
	relayTargetRPS = 20000 // the throughput target, messages per second over all pairs
	relayRunFor    = 8 * time.Second
)

var relayRates = flag.String("relay-rates", "", `relay section: only these runs, comma-separated: open-loop rates in msg/s and "closed" for the closed loop (no idle sockets, no report; each run logs its figures and the capacity its CPU per message leaves room for)`)

// benchRelay appends the relay section to report.
func benchRelay(report *strings.Builder, bin string) {
	raiseFileLimit(relayIdleConns + 2048) // each side (this process, latchd) holds one end of every socket
	dir, err := os.MkdirTemp("", "latch-bench-relay-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	srv, err := startRelayServer(bin, dir)
	if err != nil {
		log.Fatal(err)
	}
	defer srv.stop()
	project, err := srv.projectID()
	if err != nil {
		log.Fatal(err)
	}
	wsURL := "ws" + strings.TrimPrefix(srv.api, "http")
	admin, err := srv.adminURL()
	if err != nil {
		log.Fatal(err)
	}
	b := &relayBench{url: wsURL, project: project, pid: srv.cmd.Process.Pid, admin: admin}

	fmt.Fprintf(report, "\n## WalletConnect relay (`latchd dev`, memory broker, limits off for the load generator)\n\n")

	if *relayRates != "" {
		// Quick look while working on the relay: the runs asked for only.
		rates, err := parseRelayRates(*relayRates)
		if err != nil {
			log.Fatalf("-relay-rates: %v", err)
		}
		pairs := b.openPairs(relayPairs)
		for _, rate := range rates {
			r := b.run(pairs, rate, relayRunFor)
			name := fmt.Sprintf("open loop %d/s", rate)
			if rate == 0 {
				name = "closed loop"
			}
			log.Printf("relay %s: %.0f delivered/s, p50 %v p99 %v max %v; CPU/msg latchd %.1f µs, generator %.1f µs; latchd allocations/msg %.1f; %s",
				name, r.rps, r.p50, r.p99, r.max, r.serverCPU, r.clientCPU, r.serverAllocs, r.capacity())
		}
		for _, p := range pairs {
			p.close()
		}
		return
	}
	// Idle sockets: each authenticated and subscribed to one topic, like a
	// wallet waiting for requests.
	before := rssKiB(srv.cmd.Process.Pid)
	idle := b.openIdle(relayIdleConns)
	time.Sleep(3 * time.Second) // let the server settle (its connection-time garbage collected)
	after := rssKiB(srv.cmd.Process.Pid)
	perConn := float64(after-before) / float64(len(idle))
	fmt.Fprintf(report, "Idle sockets: %d held (authenticated, one subscription each). latchd resident memory %.1f MiB → %.1f MiB: **%.1f KiB per socket** (target: under 20 KiB).\n",
		len(idle), float64(before)/1024, float64(after)/1024, perConn)
	log.Printf("relay: %d idle sockets, %.1f KiB each (RSS %d → %d KiB)", len(idle), perConn, before, after)
	for _, c := range idle {
		c.CloseNow()
	}
	time.Sleep(2 * time.Second)

	pairs := b.openPairs(relayPairs)
	defer func() {
		for _, p := range pairs {
			p.close()
		}
	}()
	fmt.Fprintf(report, "\nPublish → delivery with %d pairs (a dapp socket publishing irn_publish to its wallet's topic, the wallet acknowledging each irn_subscription; %d sockets, load generator on the same 2 cores). Latency is from when a message was due to when its delivery was read. CPU per message is each process's user + system time over the run divided by the messages delivered; the kernel's loopback TCP work is charged to the process making the system call.\n\n", len(pairs), 2*len(pairs))
	fmt.Fprintf(report, "| load | duration | delivered | delivered/s | p50 | p99 | max | CPU per message: latchd | load generator | latchd allocations per message |\n|---|---|---|---|---|---|---|---|---|---|\n")
	// Open loop at a sweep of offered rates (where latency stays low, the
	// target, past it), then the closed loop.
	for _, rate := range []int{relayTargetRPS / 4, relayTargetRPS / 2, relayTargetRPS, relayTargetRPS * 3 / 2} {
		open := b.run(pairs, rate, relayRunFor)
		fmt.Fprintf(report, "| open loop, %d msg/s offered | %s | %d | %.0f | %s | %s | %s | %.1f µs | %.1f µs | %.1f |\n", rate, relayRunFor, open.n, open.rps, open.p50, open.p99, open.max, open.serverCPU, open.clientCPU, open.serverAllocs)
		log.Printf("relay open loop %d/s: %.0f delivered/s, p50 %v p99 %v; CPU/msg latchd %.1f µs, generator %.1f µs", rate, open.rps, open.p50, open.p99, open.serverCPU, open.clientCPU)
	}
	closed := b.run(pairs, 0, relayRunFor)
	fmt.Fprintf(report, "| closed loop (each dapp publishes as soon as its last publish is answered) | %s | %d | %.0f | %s | %s | %s | %.1f µs | %.1f µs | %.1f |\n", relayRunFor, closed.n, closed.rps, closed.p50, closed.p99, closed.max, closed.serverCPU, closed.clientCPU, closed.serverAllocs)
	log.Printf("relay closed loop: %.0f delivered/s, p50 %v p99 %v; CPU/msg latchd %.1f µs, generator %.1f µs; latchd allocations/msg %.1f", closed.rps, closed.p50, closed.p99, closed.serverCPU, closed.clientCPU, closed.serverAllocs)
	fmt.Fprintf(report, "\nIn the closed loop both processes keep the %d cores busy, so throughput follows CPU per message: %s.\n", runtime.NumCPU(), closed.capacity())
	fmt.Fprintf(report, "\nTargets (issue 4): 10,000 sockets under 20 KiB each; ≥ 20,000 delivered messages/s; p99 under 20 ms. Issue 41: ≥ 50,000 delivered messages/s closed loop on 2 cores, idle sockets under 4 KiB.\n")
}

// startRelayServer starts `latchd dev` with the relay's per-client limits off.
func startRelayServer(bin, dir string) (*server, error) {
	cmd := exec.Command(bin, "dev", "--addr", "127.0.0.1:0", "--frame-addr", "127.0.0.1:0", "--admin-addr", "127.0.0.1:0", "--data-dir", dir,
		"--dev-chains", "31337", "--ip-rate-limit", "0", "--relay-max-conns-per-ip", "0", "--relay-publish-rate", "0",
		"--relay-max-topics", "100000", "--log-level", "warn")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if m := apiLine.FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				for sc.Scan() {
				}
			}()
			return &server{cmd: cmd, api: m[1]}, nil
		}
	}
	cmd.Process.Kill()
	return nil, fmt.Errorf("latchd exited before it was ready: %v", cmd.Wait())
}

// adminURL is the base URL of latchd dev's admin listener (its /metrics).
func (s *server) adminURL() (string, error) {
	resp, err := http.Get(s.api + "/dev/info")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var info struct {
		AdminURL string `json:"adminUrl"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&info); err != nil {
		return "", err
	}
	if info.AdminURL == "" {
		return "", errors.New("latchd dev has no admin listener (its /dev/info names no adminUrl)")
	}
	return info.AdminURL, nil
}

// raiseFileLimit lifts RLIMIT_NOFILE (inherited by latchd) to hold n sockets.
func raiseFileLimit(n uint64) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		log.Fatal(err)
	}
	if lim.Cur >= n {
		return
	}
	lim.Cur = min(n, lim.Max)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur < n {
		log.Fatalf("relay bench: need %d file descriptors, the hard limit is %d: %v", n, lim.Max, err)
	}
}

// rssKiB is a process's resident memory.
func rssKiB(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		log.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	log.Fatal("no VmRSS")
	return 0
}

type relayBench struct {
	url, project string
	pid          int    // latchd's
	admin        string // latchd's admin listener (its /metrics)
}

// parseRelayRates reads -relay-rates: open-loop rates and "closed" (0).
func parseRelayRates(s string) ([]int, error) {
	var rates []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "closed" {
			rates = append(rates, 0)
			continue
		}
		rate, err := strconv.Atoi(f)
		if err != nil || rate <= 0 {
			return nil, fmt.Errorf(`%q is neither a rate in msg/s nor "closed"`, f)
		}
		rates = append(rates, rate)
	}
	return rates, nil
}

// dial opens an authenticated relay socket for a fresh client key. It also
// returns the socket under the websocket, which a run takes over.
func (b *relayBench) dial(ctx context.Context) (*websocket.Conn, net.Conn, error) {
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	q := url.Values{"auth": {relay.SignToken(key, "bench", b.url, time.Now(), time.Hour)}, "projectId": {b.project}, "ua": {"wc-2/go-bench"}, "useOnCloseEvent": {"true"}}
	var nc net.Conn
	var d net.Dialer
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		nc = c
		return c, err
	}}}
	ws, _, err := websocket.Dial(ctx, b.url+"/?"+q.Encode(), &websocket.DialOptions{HTTPClient: hc, CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return nil, nil, err
	}
	ws.SetReadLimit(1 << 20)
	return ws, nc, nil
}

// call sends one request and reads frames until its answer.
func call(ctx context.Context, ws *websocket.Conn, id int, method, params string) error {
	req := fmt.Sprintf(`{"id":%d,"jsonrpc":"2.0","method":%q,"params":%s}`, id, method, params)
	if err := ws.Write(ctx, websocket.MessageText, []byte(req)); err != nil {
		return err
	}
	prefix := []byte(fmt.Sprintf(`{"id":%d,`, id))
	for {
		_, data, err := ws.Read(ctx)
		if err != nil {
			return err
		}
		if bytes.HasPrefix(data, prefix) {
			if bytes.Contains(data, []byte(`"error"`)) {
				return fmt.Errorf("%s: %s", method, data)
			}
			return nil
		}
	}
}

func newTopic() string {
	var t [32]byte
	rand.Read(t[:])
	return hex.EncodeToString(t[:])
}

// openIdle opens n subscribed sockets, 64 at a time.
func (b *relayBench) openIdle(n int) []*websocket.Conn {
	conns := make([]*websocket.Conn, n)
	inParallel(n, 64, func(i int) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		ws, _, err := b.dial(ctx)
		if err == nil {
			err = call(ctx, ws, 1, "irn_subscribe", `{"topic":"`+newTopic()+`"}`)
		}
		if err != nil {
			log.Fatalf("relay bench: socket %d: %v", i, err)
		}
		conns[i] = ws
	})
	return conns
}

// inParallel runs f(0) … f(n-1) on the given number of goroutines.
func inParallel(n, workers int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// pair is a dapp socket publishing to the topic its wallet socket is subscribed to.
type pair struct {
	topic            string
	dapp, wallet     *websocket.Conn
	dappNC, walletNC net.Conn
	dappFD, walletFD int // while a run serves them
}

func (p *pair) close() {
	p.dapp.CloseNow()
	p.wallet.CloseNow()
}

func (b *relayBench) openPairs(n int) []*pair {
	pairs := make([]*pair, n)
	inParallel(n, 32, func(i int) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		p := &pair{topic: newTopic()}
		var err error
		if p.dapp, p.dappNC, err = b.dial(ctx); err == nil {
			if p.wallet, p.walletNC, err = b.dial(ctx); err == nil {
				err = call(ctx, p.wallet, 1, "irn_subscribe", `{"topic":"`+p.topic+`"}`)
			}
		}
		if err != nil {
			log.Fatalf("relay bench: pair %d: %v", i, err)
		}
		pairs[i] = p
	})
	return pairs
}

// run publishes on every pair for d, at rate messages/s in total (open loop;
// 0: closed loop), and returns delivery latencies and throughput. Each
// message carries the time it was due; the wallet side measures on receipt
// and acknowledges as @walletconnect/core does. The pairs' sockets are
// served by the generator's epoll loops (relayload.go) and closed after.
func (b *relayBench) run(pairs []*pair, rate int, d time.Duration) relayResult {
	for _, p := range pairs {
		p.dappFD, p.walletFD = takeOver(p.dapp, p.dappNC), takeOver(p.wallet, p.walletNC)
	}
	allocs0 := b.mallocs()
	serverCPU0, clientCPU0 := cpuTime(b.pid), cpuTime(os.Getpid())
	start := time.Now().Add(200 * time.Millisecond)
	end := start.Add(d)
	loops := startLoops(pairs, &loadRun{start: start, end: end, closed: rate == 0})
	var wg sync.WaitGroup
	if rate == 0 {
		// Closed loop: each pair's first message; the loops publish the
		// next one when a publish is answered.
		time.Sleep(time.Until(start))
		var msg []byte
		for _, p := range pairs {
			msg = appendPublish(msg[:0], p, 0, time.Now())
			writeAll(p.dappFD, msg)
		}
	} else {
		// Open loop: message k is due at start + k/rate and goes to pair
		// k mod len(pairs), so each pair publishes at rate/len(pairs) per
		// second, the pairs evenly staggered. A few senders share the
		// schedule (sender j sends messages k ≡ j mod senders); a sender
		// that wakes late sends everything due at once, and the lateness
		// counts in the latency, which runs from the due time.
		const senders = 4
		gap := time.Second / time.Duration(rate)
		for j := range senders {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var msg []byte
				seqs := make([]int, len(pairs))
				for k := j; ; k += senders {
					due := start.Add(time.Duration(k) * gap)
					if !due.Before(end) {
						return
					}
					if wait := time.Until(due); wait > 0 {
						time.Sleep(wait)
					}
					i := k % len(pairs)
					seqs[i]++
					msg = appendPublish(msg[:0], pairs[i], seqs[i], due)
					writeAll(pairs[i].dappFD, msg)
				}
			}()
		}
	}
	wg.Wait()
	time.Sleep(time.Until(end) + 2*time.Second) // deliveries in flight arrive
	serverCPU, clientCPU := cpuTime(b.pid)-serverCPU0, cpuTime(os.Getpid())-clientCPU0
	allocs := b.mallocs() - allocs0
	lat := stopLoops(loops)
	// Fresh sockets for the next run.
	copy(pairs, b.openPairs(len(pairs)))
	if len(lat) == 0 {
		log.Fatal("relay bench: nothing delivered")
	}
	slices.Sort(lat)
	q := func(f float64) time.Duration { return lat[int(f*float64(len(lat)-1))].Round(10 * time.Microsecond) }
	perMsg := func(cpu time.Duration) float64 { return float64(cpu.Microseconds()) / float64(len(lat)) }
	return relayResult{n: len(lat), rps: float64(len(lat)) / d.Seconds(), p50: q(0.5), p99: q(0.99), max: lat[len(lat)-1].Round(10 * time.Microsecond),
		serverCPU: perMsg(serverCPU), clientCPU: perMsg(clientCPU), serverAllocs: float64(allocs) / float64(len(lat))}
}

// mallocs is latchd's count of heap allocations so far (its
// go_memstats_mallocs_total, read from the admin listener).
func (b *relayBench) mallocs() int64 {
	resp, err := http.Get(b.admin + "/metrics")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "go_memstats_mallocs_total "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				log.Fatalf("relay bench: go_memstats_mallocs_total %q", v)
			}
			return int64(f)
		}
	}
	log.Fatalf("relay bench: no go_memstats_mallocs_total in latchd's metrics (%v)", sc.Err())
	return 0
}

// takeOver returns a descriptor of the socket under ws for the load loops
// and closes ws without a close frame.
func takeOver(ws *websocket.Conn, nc net.Conn) int {
	fd, err := sockio.Dup(nc.(syscall.Conn))
	if err != nil {
		log.Fatal(err)
	}
	ws.CloseNow()
	return fd
}

// appendPublish appends the client frame of message seq of pair p, due at
// due (the wallet measures from it).
func appendPublish(dst []byte, p *pair, seq int, due time.Time) []byte {
	var buf [256]byte
	b := append(buf[:0], `{"id":`...)
	b = strconv.AppendInt(b, int64(seq)+1, 10)
	b = append(b, `,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"`...)
	b = append(b, p.topic...)
	b = append(b, `","message":"t`...)
	b = strconv.AppendInt(b, due.UnixNano(), 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, int64(seq), 10)
	b = append(b, `","ttl":300,"tag":1108,"prompt":true}}`...)
	return appendClientFrame(dst, 0x1, b)
}

type relayResult struct {
	n                    int
	rps                  float64
	p50, p99, max        time.Duration
	serverCPU, clientCPU float64 // µs of CPU (user + system) per delivered message
	serverAllocs         float64 // latchd's heap allocations per delivered message
}

// capacity is the throughput the CPU per message leaves room for when
// latchd and the load generator share every core of this machine.
func (r relayResult) capacity() string {
	perMsg := r.serverCPU + r.clientCPU
	if perMsg <= 0 {
		return "capacity unknown (no CPU time measured)"
	}
	return fmt.Sprintf("%.1f µs of CPU per message (latchd + load generator) leaves room for %.0f msg/s on %d cores", perMsg, float64(runtime.NumCPU())*1e6/perMsg, runtime.NumCPU())
}

// cpuTime is the CPU time (user + system) a process has used so far.
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		log.Fatal(err)
	}
	// The fields after the command name, which is in parentheses: utime and
	// stime are the 12th and 13th, in clock ticks (100 per second on Linux).
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// messageDue reads the due time from a delivered message "t<unixnano>.<seq>".
func messageDue(frame []byte) time.Time {
	i := bytes.Index(frame, []byte(`"message":"t`))
	if i < 0 {
		return time.Time{}
	}
	rest := frame[i+len(`"message":"t`):]
	j := bytes.IndexByte(rest, '.')
	if j < 0 {
		return time.Time{}
	}
	n, err := strconv.ParseInt(string(rest[:j]), 10, 64)
	if err != nil {
		return time.Time{}
	}
	return time.Unix(0, n)
}
