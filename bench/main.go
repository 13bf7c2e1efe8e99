// Command bench measures latchd on this machine: the start-up time of
// `latchd dev` and /getWallets search latency at 1 and 64 concurrent clients
// on loopback. `make bench` runs it and writes bench/results.md.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

func main() {
	latchd := flag.String("latchd", "bin/latchd", "latchd binary")
	out := flag.String("out", "bench/results.md", "where to write the results")
	starts := flag.Int("starts", 3, "dev start-ups to time")
	flag.Parse()

	var report strings.Builder
	fmt.Fprintf(&report, "# latchd benchmarks\n\nMachine: %d cores, %s/%s, %s. Produced by `make bench` (bench/main.go) on %s.\n\n",
		runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(), time.Now().UTC().Format("2006-01-02"))

	// Start-up: fresh data dir (creates the database and the dev project) and a reused one.
	fmt.Fprintf(&report, "## Start-up of `latchd dev` (both dev chains, contracts deployed, wallets loaded)\n\n| run | data dir | until listening (wall) | reported by latchd |\n|---|---|---|---|\n")
	dir, err := os.MkdirTemp("", "latch-bench-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	var srv *server
	for i := 0; i < *starts; i++ {
		kind := "reused"
		if i == 0 {
			kind = "fresh"
		}
		s, err := start(*latchd, dir)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Fprintf(&report, "| %d | %s | %d ms | %d ms |\n", i+1, kind, s.wall.Milliseconds(), s.reported)
		log.Printf("start %d (%s): %v wall, %d ms reported", i+1, kind, s.wall, s.reported)
		if i == *starts-1 {
			srv = s
		} else {
			s.stop()
		}
	}
	defer srv.stop()

	projectID, err := srv.projectID()
	if err != nil {
		log.Fatal(err)
	}
	terms := []string{"meta", "wa", "trust", "coin", "o", "ledger", "zer", "sa", "rain", "phan"}
	fmt.Fprintf(&report, "\n## GET /getWallets?search=…&entries=100 (119 wallets; terms %s)\n\n| clients | requests | p50 | p99 | max | throughput |\n|---|---|---|---|---|---|\n", strings.Join(terms, ", "))
	for _, c := range []struct{ clients, requests int }{{1, 3000}, {64, 30000}} {
		r := load(srv.api, projectID, terms, c.clients, c.requests)
		fmt.Fprintf(&report, "| %d | %d | %s | %s | %s | %.0f req/s |\n", c.clients, c.requests, r.p50, r.p99, r.max, r.rps)
		log.Printf("%d clients: p50 %v p99 %v max %v, %.0f req/s", c.clients, r.p50, r.p99, r.max, r.rps)
	}
	fmt.Fprintf(&report, "\nTargets (issue 2): p99 under 5 ms at 64 clients; dev start under 3 s. The server ran with `--ip-rate-limit 0` so the load generator is not throttled; client and server share the machine's cores.\n")
	if err := os.WriteFile(*out, []byte(report.String()), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Print(report.String())
}

type server struct {
	cmd      *exec.Cmd
	api      string
	wall     time.Duration
	reported int64
}

var (
	apiLine   = regexp.MustCompile(`API:\s+(\S+)`)
	readyLine = regexp.MustCompile(`ready in (\d+) ms`)
)

func start(bin, dir string) (*server, error) {
	t0 := time.Now()
	cmd := exec.Command(bin, "dev", "--addr", "127.0.0.1:0", "--frame-addr", "127.0.0.1:0", "--data-dir", dir,
		"--ip-rate-limit", "0", "--log-level", "warn")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		if m := readyLine.FindStringSubmatch(line); m != nil {
			fmt.Sscan(m[1], &s.reported)
		}
		if m := apiLine.FindStringSubmatch(line); m != nil {
			s.api = m[1]
			s.wall = time.Since(t0)
			go io.Copy(io.Discard, stdout)
			return s, nil
		}
	}
	cmd.Process.Kill()
	return nil, fmt.Errorf("latchd exited before it was ready: %v", cmd.Wait())
}

func (s *server) stop() {
	s.cmd.Process.Signal(os.Interrupt)
	s.cmd.Wait()
}

func (s *server) projectID() (string, error) {
	resp, err := http.Get(s.api + "/dev/info")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var info struct{ ProjectID string }
	if err := json.NewDecoder(resp.Body).Decode(&info); err != nil {
		return "", err
	}
	return info.ProjectID, nil
}

type result struct {
	p50, p99, max time.Duration
	rps           float64
}

func load(api, projectID string, terms []string, clients, requests int) result {
	tr := &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	defer tr.CloseIdleConnections()
	urls := make([]string, len(terms))
	for i, t := range terms {
		urls[i] = api + "/getWallets?projectId=" + projectID + "&page=1&entries=100&search=" + url.QueryEscape(t)
	}
	// Warm up connections and caches.
	for i := 0; i < clients*4; i++ {
		get(client, urls[i%len(urls)])
	}
	lat := make([]time.Duration, requests)
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	t0 := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= requests {
					return
				}
				s := time.Now()
				if err := get(client, urls[i%len(urls)]); err != nil {
					log.Fatal(err)
				}
				lat[i] = time.Since(s)
			}
		}()
	}
	wg.Wait()
	total := time.Since(t0)
	slices.Sort(lat)
	q := func(p float64) time.Duration { return lat[int(p*float64(len(lat)-1))].Round(time.Microsecond) }
	return result{p50: q(0.50), p99: q(0.99), max: lat[len(lat)-1].Round(time.Microsecond), rps: float64(requests) / total.Seconds()}
}

func get(c *http.Client, u string) error {
	resp, err := c.Get(u)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return nil
}
