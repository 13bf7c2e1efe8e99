// Package deploy_test checks deploy/compose.yaml against latchd (every
// option it sets is one latchd has, with a value latchd accepts) and runs
// its topology on this machine without containers (cluster_test.go).
package deploy_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/latchkit/latch/internal/app"
)

// compose is the part of a compose file the checks read.
type compose struct {
	Services map[string]service `yaml:"services"`
	Networks map[string]struct {
		IPAM struct {
			Config []struct {
				Subnet string `yaml:"subnet"`
			} `yaml:"config"`
		} `yaml:"ipam"`
	} `yaml:"networks"`
}

type service struct {
	Image string `yaml:"image"`
	Build struct {
		Context    string `yaml:"context"`
		Dockerfile string `yaml:"dockerfile"`
	} `yaml:"build"`
	Command     []string            `yaml:"command"`
	EnvFile     []string            `yaml:"env_file"`
	Environment map[string]string   `yaml:"environment"`
	DependsOn   map[string]struct{} `yaml:"depends_on"`
	Healthcheck struct {
		Test []string `yaml:"test"`
	} `yaml:"healthcheck"`
	Ports           []string  `yaml:"ports"`
	Networks        yaml.Node `yaml:"networks"`
	StopGracePeriod string    `yaml:"stop_grace_period"`
}

// latchdImage is the image compose.yaml builds from the root Containerfile.
const latchdImage = "latch/latchd"

// loadCompose reads compose.yaml with the ${…} of its .env.example
// substituted, as docker compose does with a .env copied from it.
func loadCompose(t *testing.T) compose {
	t.Helper()
	raw, err := os.ReadFile("compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	vars := readEnvFile(t, ".env.example")
	for k, v := range vars {
		if _, secret := secrets[k]; secret {
			if v != "" {
				t.Fatalf(".env.example gives %s a value: a published secret would be used by whoever forgets to change it", k)
			}
			vars[k] = secretValue(k)
		}
	}
	text, err := interpolate(string(raw), vars)
	if err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	var c compose
	if err := yaml.Unmarshal([]byte(text), &c); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	return c
}

// readEnvFile reads KEY=value lines; # starts a comment line.
func readEnvFile(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("%s:%d: want KEY=value", path, n)
		}
		out[k] = v
	}
	return out
}

var variable = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:-|:\?)([^}]*))?\}`)

// interpolate substitutes ${NAME}, ${NAME:-default} and ${NAME:?message}
// as compose does; a ${NAME:?…} left unset is an error.
func interpolate(s string, vars map[string]string) (string, error) {
	var err error
	out := variable.ReplaceAllStringFunc(s, func(m string) string {
		p := variable.FindStringSubmatch(m)
		v, ok := vars[p[1]]
		switch {
		case ok && v != "":
			return v
		case p[2] == ":-":
			return p[3]
		case p[2] == ":?":
			err = fmt.Errorf("%s is not set: %s", p[1], p[3])
		case !ok:
			err = fmt.Errorf("%s is not set and has no default", p[1])
		}
		return v
	})
	return out, err
}

// latchdNodes returns the names of the services that run latchd serve.
func (c compose) latchdNodes() []string {
	var names []string
	for name, s := range c.Services {
		if strings.HasPrefix(s.Image, latchdImage+":") || s.Image == latchdImage {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// nodeSettings is what a latchd service starts with: the arguments after
// its command and its environment (env files, then environment entries).
func nodeSettings(t *testing.T, s service) (args, environ []string) {
	t.Helper()
	env := map[string]string{}
	for _, f := range s.EnvFile {
		// The real file holds secrets and is not in the repository; its
		// template is, with the secrets left empty: they are made here as
		// an operator makes them.
		for k, v := range readEnvFile(t, f+".example") {
			if _, secret := secrets[k]; secret {
				if v != "" {
					t.Fatalf("%s.example gives %s a value: a published secret would be used by whoever forgets to change it", f, k)
				}
				v = secretValue(k)
			}
			env[k] = v
		}
	}
	for k, v := range s.Environment {
		env[k] = v
	}
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}
	slices.Sort(environ)
	return s.Command[1:], environ
}

// secrets are the settings .env.example and latchd.env.example leave empty,
// and how an operator makes each (the commands their comments give).
var secrets = map[string]func() string{
	"POSTGRES_PASSWORD":       func() string { return randomHex(24) },
	"LATCH_ADMIN_TOKEN":       func() string { return randomHex(32) },
	"LATCH_AUTH_SECRET":       func() string { return randomHex(32) },
	"LATCH_AUTH_KEK":          func() string { return "k1:" + randomBase64(32) },
	"LATCH_AUTH_RECOVERY_KEY": func() string { return "r1:" + randomBase64(32) },
}

var (
	madeMu sync.Mutex
	made   = map[string]string{}
)

// secretValue is the secret k made once for this test run, so that every
// node gets the same, as they must.
func secretValue(k string) string {
	madeMu.Lock()
	defer madeMu.Unlock()
	if made[k] == "" {
		made[k] = secrets[k]()
	}
	return made[k]
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func randomBase64(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.StdEncoding.EncodeToString(b)
}

// checkNode reports what is wrong with a latchd service's settings: an
// option latchd does not have, a value it refuses, or a setting latchd serve
// needs in a cluster that is missing.
func checkNode(c compose, name string, args, environ []string) error {
	s := c.Services[name]
	if len(s.Command) == 0 || s.Command[0] != "serve" {
		return fmt.Errorf("%s: command %q, want latchd serve", name, s.Command)
	}
	cfg, err := app.ParseConfig(args, environ)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := app.CheckServe(cfg); err != nil {
		return fmt.Errorf("%s: latchd serve would refuse to start: %w", name, err)
	}
	for option, raw := range map[string]string{"LATCH_DATABASE_URL": cfg.DatabaseURL, "LATCH_REDIS_URL": cfg.RedisURL} {
		u, err := url.Parse(raw)
		if raw == "" || err != nil {
			return fmt.Errorf("%s: %s %q: every node must share one database and one Redis", name, option, raw)
		}
		if _, ok := c.Services[u.Hostname()]; !ok {
			return fmt.Errorf("%s: %s names host %q, which is no service", name, option, u.Hostname())
		}
		if _, ok := s.DependsOn[u.Hostname()]; !ok {
			return fmt.Errorf("%s: does not depend on %s", name, u.Hostname())
		}
	}
	// Compose kills a container 10 s after SIGTERM unless told otherwise;
	// latchd needs its shutdown timeout and a little more.
	grace, err := time.ParseDuration(s.StopGracePeriod)
	if err != nil || grace <= cfg.ShutdownTimeout {
		return fmt.Errorf("%s: stop_grace_period %q must be longer than latchd's shutdown timeout %v", name, s.StopGracePeriod, cfg.ShutdownTimeout)
	}
	if cfg.AdminAddr == "" {
		return fmt.Errorf("%s: no admin listener: /metrics would not be served", name)
	}
	for _, e := range environ {
		if k, _, _ := strings.Cut(e, "="); k == "LATCH_ADMIN_TOKEN" && s.Environment[k] != "" {
			return fmt.Errorf("%s: LATCH_ADMIN_TOKEN is written in compose.yaml; it belongs in the env file", name)
		}
	}
	return nil
}

func TestCompose(t *testing.T) {
	c := loadCompose(t)
	nodes := c.latchdNodes()
	if len(nodes) < 2 {
		t.Fatalf("latchd services %v, want at least two", nodes)
	}

	t.Run("NodesUseRealOptions", func(t *testing.T) {
		var first []string
		for _, name := range nodes {
			args, environ := nodeSettings(t, c.Services[name])
			if err := checkNode(c, name, args, environ); err != nil {
				t.Error(err)
			}
			if first == nil {
				first = slices.Concat(args, environ)
			} else if !slices.Equal(first, slices.Concat(args, environ)) {
				t.Errorf("%s is configured unlike %s: every node must run the same settings", name, nodes[0])
			}
		}
	})

	// The check above must catch a misspelt option, in the environment or
	// on the command line, and a value latchd refuses.
	t.Run("ErrMisspeltOption", func(t *testing.T) {
		args, environ := nodeSettings(t, c.Services[nodes[0]])
		for _, tc := range []struct {
			name          string
			args, environ []string
			want          string
		}{
			{"Environment", args, replaceKey(environ, "LATCH_REDIS_URL", "LATCH_REDIS_ULR"), "LATCH_REDIS_ULR names no latchd option"},
			{"Flag", append(slices.Clone(args), "--trusted-proxy", "10.0.0.1/32"), environ, "flag provided but not defined"},
			{"Value", args, replaceValue(environ, "LATCH_TRUSTED_PROXIES", "172.30.0.10"), `"172.30.0.10" is not a CIDR`},
			{"NoRelayURL", args, removeKey(environ, "LATCH_RELAY_URL"), "--relay-url is required"},
			{"ShutdownOverGrace", args, append(slices.Clone(environ), "LATCH_SHUTDOWN_TIMEOUT=1m"), "must be longer than latchd's shutdown timeout"},
		} {
			err := checkNode(c, nodes[0], tc.args, tc.environ)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
			}
		}
	})

	t.Run("BuildAndHealthcheck", func(t *testing.T) {
		containerfile, err := os.ReadFile("../Containerfile")
		if err != nil {
			t.Fatal(err)
		}
		entry := regexp.MustCompile(`(?m)^ENTRYPOINT\s+(\[.*\])\s*$`).FindSubmatch(containerfile)
		var entrypoint []string
		if entry == nil || json.Unmarshal(entry[1], &entrypoint) != nil || len(entrypoint) != 1 {
			t.Fatalf("the Containerfile has no ENTRYPOINT [\"<latchd>\"]")
		}
		for _, name := range nodes {
			s := c.Services[name]
			if s.Build.Context != ".." || s.Build.Dockerfile != "Containerfile" {
				t.Errorf("%s: build %+v, want the root Containerfile", name, s.Build)
			}
			hc := s.Healthcheck.Test
			if len(hc) < 3 || hc[0] != "CMD" || hc[2] != "healthcheck" {
				t.Fatalf("%s: healthcheck %q, want [CMD <latchd> healthcheck …]", name, hc)
			}
			if hc[1] != entrypoint[0] {
				t.Errorf("%s: the healthcheck runs %s; the image's latchd is %s", name, hc[1], entrypoint[0])
			}
			// latchd healthcheck against nothing listening: unhealthy (1),
			// not an unknown command (2) or a refused option.
			_, environ := nodeSettings(t, s)
			for _, e := range environ {
				k, v, _ := strings.Cut(e, "=")
				t.Setenv(k, v)
			}
			t.Setenv("LATCH_ADDR", "127.0.0.1:1")
			var stderr strings.Builder
			code := app.CLI(context.Background(), append(hc[2:], "--timeout", "1s"), io.Discard, &stderr)
			if code != 1 || !strings.Contains(stderr.String(), "unhealthy") {
				t.Errorf("%s: %q: exit %d, %q; want exit 1, unhealthy", name, hc[1:], code, stderr.String())
			}
		}
	})

	t.Run("BalancerReachesEveryNode", func(t *testing.T) {
		raw, err := os.ReadFile("Caddyfile")
		if err != nil {
			t.Fatal(err)
		}
		args, environ := nodeSettings(t, c.Services[nodes[0]])
		cfg, err := app.ParseConfig(args, environ)
		if err != nil {
			t.Fatal(err)
		}
		_, apiPort, _ := net.SplitHostPort(cfg.Addr)
		_, framePort, _ := net.SplitHostPort(cfg.FrameAddr)
		for _, site := range []struct{ listen, port, health string }{{":8080", apiPort, "/readyz"}, {":8081", framePort, "/healthz"}} {
			block := caddySite(string(raw), site.listen)
			if block == "" {
				t.Fatalf("Caddyfile has no site %s", site.listen)
			}
			upstreams := regexp.MustCompile(`(?m)^\s*reverse_proxy\s+([^{]+)\{`).FindStringSubmatch(block)
			if upstreams == nil {
				t.Fatalf("site %s has no reverse_proxy", site.listen)
			}
			var want []string
			for _, n := range nodes {
				want = append(want, n+":"+site.port)
			}
			if got := strings.Fields(upstreams[1]); !slices.Equal(got, want) {
				t.Errorf("site %s proxies to %v, want every node's listener %v", site.listen, got, want)
			}
			if !strings.Contains(block, "health_uri "+site.health) {
				t.Errorf("site %s does not check %s", site.listen, site.health)
			}
			if !slices.ContainsFunc(c.Services["caddy"].Ports, func(p string) bool { return strings.HasSuffix(p, site.listen) }) {
				t.Errorf("caddy does not publish %s", site.listen)
			}
		}
		// latchd believes X-Forwarded-For from Caddy's address only.
		var caddy struct {
			Latch struct {
				IPv4 string `yaml:"ipv4_address"`
			} `yaml:"latch"`
		}
		networks := c.Services["caddy"].Networks
		if err := networks.Decode(&caddy); err != nil {
			t.Fatal(err)
		}
		ip := net.ParseIP(caddy.Latch.IPv4)
		if ip == nil || len(cfg.TrustedProxies) != 1 || !cfg.TrustedProxies[0].Contains(ip) {
			t.Errorf("trusted proxies %v do not hold Caddy's address %q", cfg.TrustedProxies, caddy.Latch.IPv4)
		}
		if _, subnet, err := net.ParseCIDR(c.Networks["latch"].IPAM.Config[0].Subnet); err != nil || !subnet.Contains(ip) {
			t.Errorf("Caddy's address %s is outside the network's subnet", ip)
		}
	})
}

// caddySite returns the block of the Caddyfile site that listens on addr.
func caddySite(file, addr string) string {
	start := strings.Index(file, "\n"+addr+" {")
	if start < 0 {
		return ""
	}
	end := strings.Index(file[start:], "\n}")
	if end < 0 {
		return ""
	}
	return file[start : start+end]
}

func replaceKey(environ []string, from, to string) []string {
	out := slices.Clone(environ)
	for i, e := range out {
		if k, v, _ := strings.Cut(e, "="); k == from {
			out[i] = to + "=" + v
		}
	}
	return out
}

func replaceValue(environ []string, key, value string) []string {
	out := slices.Clone(environ)
	for i, e := range out {
		if k, _, _ := strings.Cut(e, "="); k == key {
			out[i] = key + "=" + value
		}
	}
	return out
}

func removeKey(environ []string, key string) []string {
	return slices.DeleteFunc(slices.Clone(environ), func(e string) bool { return strings.HasPrefix(e, key+"=") })
}
