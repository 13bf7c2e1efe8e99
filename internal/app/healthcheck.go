package app

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// maxHealthBody is how much of a health answer `latchd healthcheck` quotes.
const maxHealthBody = 512

// runHealthcheck asks a running latchd whether it is healthy: a GET of its
// health route that answers 200. It is a container's HEALTHCHECK, where the
// image (FROM scratch) has no shell or curl. The URL defaults to /healthz on
// the API listener that the same settings (--addr, LATCH_ADDR, --config)
// give the server, a wildcard host asked on loopback.
func runHealthcheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg Config
	fs, finish := flagSet("latchd healthcheck", &cfg, stderr)
	var target string
	var timeout time.Duration
	fs.StringVar(&target, "url", "", "URL to GET (default: http://<--addr>/healthz; e.g. …/readyz to also check storage and Redis)")
	fs.DurationVar(&timeout, "timeout", 5*time.Second, "give up after this long")
	if err := parseFlags(fs, args, os.Getenv); err != nil {
		return err
	}
	if err := finish(); err != nil {
		return err
	}
	if timeout <= 0 {
		return fmt.Errorf("--timeout must be positive")
	}
	if target == "" {
		target = "http://" + loopbackAddr(cfg.Addr) + "/healthz"
	}
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--url %q: want an http or https URL", target)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("unhealthy: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxHealthBody))
	answer := strings.TrimSpace(strings.ToValidUTF8(string(body), "?"))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("unhealthy: GET %s answered %s: %s", u.Redacted(), resp.Status, answer)
	}
	fmt.Fprintf(stdout, "healthy: GET %s answered %s: %s\n", u.Redacted(), resp.Status, answer)
	return nil
}

// loopbackAddr is addr with a wildcard or empty host replaced by 127.0.0.1
// (a server listening on all interfaces is reached on loopback).
func loopbackAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}
