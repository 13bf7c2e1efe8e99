package app

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/network"
	"github.com/latchkit/latch/internal/relay"
	"github.com/latchkit/latch/internal/telemetry"
	"github.com/redis/go-redis/v9"
)

// Config is everything latchd is configured with. Each field has a flag, an
// environment variable LATCH_<FLAG> (upper case, dashes as underscores) and a
// config-file key; a flag beats the environment, which beats the file.
type Config struct {
	Dev              bool          // latchd dev: dev chains, dev project, /dev routes, localhost origins
	Addr             string        // API listener
	FrameAddr        string        // embedded-wallet frame listener (its own origin)
	APIURL           string        // public URL of the API, when behind a proxy; empty = http://<Addr>
	FrameURL         string        // public URL of the frame origin, when behind a proxy; empty = http://<FrameAddr>
	AdminAddr        string        // operator listener (metrics); empty = none
	DataDir          string        // SQLite and other local state
	DatabaseURL      string        // Postgres; empty = SQLite in DataDir
	RedisURL         string        // Redis for rate limits and the RPC cache shared by nodes; empty = in memory
	AdminToken       string        // operator token for /v1/analytics/summary
	RPCUpstreams     []string      // <caip2>=<url>[,<url>…]
	RPCWSUpstreams   []string      // <caip2>=<ws url>[,<ws url>…]: the RPC proxy's subscriptions
	DevChains        []uint64      // chain ids of the dev networks
	TrustedProxies   []*net.IPNet  // peers whose X-Forwarded-For is believed
	IPv6Prefix       int           // IPv6 clients are limited per network of this many bits; 0 = 64
	IPRateLimit      int           // API requests per IP per minute; 0 = off
	RPCProjectLimit  int           // RPC proxy requests per project per minute; 0 = off
	RPCProbeInterval time.Duration // how often upstreams of networks in use are asked for their head; 0 = never
	LogLevel         string        // debug, info, warn, error
	LogFormat        string        // json or text
	ShutdownTimeout  time.Duration // how long in-flight requests may take on shutdown
	DemoDir          string        // latchd dev: built demo dapp to serve on DemoAddr
	DemoAddr         string        // latchd dev: listen address of the demo dapp

	// Telemetry (internal/telemetry).
	TelemetryRetention time.Duration // how long events are kept after they occurred; 0 = forever

	// WalletConnect relay (internal/relay).
	RelayURL             string        // public ws(s):// URL clients sign as their token's aud; required by latchd serve; empty (dev) = the API listener's
	RelayMaxConnsPerIP   int           // relay sockets per client IP per node; 0 = no limit
	RelayPublishRate     int           // messages one socket may publish per second; 0 = no limit
	RelayMaxTopics       int           // subscriptions per socket
	RelayMaxMessageBytes int           // largest published message
	RelayMaxTTL          time.Duration // longest a message is kept for an offline peer
	RelayMailboxSize     int           // undelivered messages each publisher may hold in one topic
	RelayMaxSocketBuffer int           // bytes framed for one relay socket and not yet taken by its peer
	RelayBrokerMaxBytes  int64         // bytes of messages the in-memory relay broker holds
	RelayBrokerMaxTopics int           // mailboxes holding messages in the in-memory relay broker
	RelayMaxClientBytes  int64         // unacknowledged message bytes one client address may have stored
	RelayFragmentTimeout time.Duration // how long a relay client may take to send one message it has started
	RelayMaxUnfinished   int64         // bytes of unfinished messages all relay sockets may hold together
	RelayTokenLifetime   time.Duration // longest exp − iat of a relay auth token

	// Sign-in with X (internal/siwx).
	SIWXSessionLifetime time.Duration // longest a sign-in session lasts
	SIWXRateLimit       int           // nonce, authenticate and verify requests per IP per minute; 0 = off

	// Account data: indexer, balances, prices, identity (internal/account, internal/indexer).
	IndexNetworks      []string      // <caip2>=<start block|head>: non-dev networks to index
	IndexConfirmations int           // blocks an opt-in network's head must be ahead of a block before it is indexed
	IndexPollInterval  time.Duration // how often opt-in networks are asked for their head
	PriceFeeds         []string      // <caip2>:<native|symbol|token address>=<feed address>, beyond the built-in feeds
	IdentityNetwork    string        // network whose ENS registry answers identity lookups
	IPFSGateway        string        // https gateway the image proxy fetches ipfs:// avatars through; empty = ipfs avatars off
	AccountRateLimit   int           // uncached balance, price and identity requests per IP per minute; 0 = off

	// E-mail login for the embedded wallet (internal/auth; flags in auth.go).
	Auth AuthConfig

	// Social login (internal/social; flags in social.go).
	Social SocialConfig

	// ERC-4337 bundler and paymaster (internal/bundler; flags in bundler.go).
	Bundler BundlerConfig

	// Account names and their ENS gateway (internal/names; flags in names.go).
	Names NamesConfig

	// Swaps over DEX routers (internal/swap; flags in swap.go).
	Swap SwapConfig

	// On-ramp providers (internal/onramp; flags in onramp.go).
	Onramp OnrampConfig

	// latchd dev's Solana network (internal/solanadev; flags in solana.go).
	SolanaDev SolanaDevConfig

	// Bounds on waiting for Postgres and Redis, and what is served while one
	// is away (flags in dependencies.go).
	Dependencies DependencyConfig
}

// minAdminTokenLen is the shortest --admin-token accepted: a guessable
// token would open the operator routes to anyone.
const minAdminTokenLen = 32

// stringList is a repeatable flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, " ") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// flagSet binds every Config field to a flag and returns the set with a
// finish func that validates and converts what was parsed.
func flagSet(name string, cfg *Config, out io.Writer) (*flag.FlagSet, func() error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(out)
	var upstreams, wsUpstreams stringList
	var devChains, trusted string
	fs.StringVar(&cfg.Addr, "addr", "127.0.0.1:8080", "API listen address")
	fs.StringVar(&cfg.FrameAddr, "frame-addr", "127.0.0.1:8081", "listen address of the embedded-wallet frame origin")
	fs.StringVar(&cfg.AdminAddr, "admin-addr", "127.0.0.1:8082", "listen address of the operator's listener, which serves /metrics (keep it off the public network; empty = no admin listener)")
	fs.StringVar(&cfg.APIURL, "api-url", "", "public URL of the API as browsers reach it (https://api.example.com[/path]), which the embedded-wallet frame calls (default: http://<addr>; required by latchd serve when --addr listens on every interface, e.g. 0.0.0.0:8080)")
	fs.StringVar(&cfg.FrameURL, "frame-url", "", "public URL of the frame origin as browsers reach it (https://wallet.example.com, no path): the origin the API admits for the frame and the base of device-approval links in mails (default: http://<frame-addr>; required by latchd serve when --frame-addr listens on every interface)")
	fs.StringVar(&cfg.DataDir, "data-dir", ".latch", "directory for the SQLite database and local state")
	fs.StringVar(&cfg.DatabaseURL, "database-url", "", "Postgres URL (postgres://…); empty uses SQLite in --data-dir")
	fs.StringVar(&cfg.RedisURL, "redis-url", "", "Redis URL (redis://…, rediss://…) for rate limits and RPC cache shared by all nodes; empty keeps them in memory")
	fs.StringVar(&cfg.AdminToken, "admin-token", "", "operator token for /v1/analytics/summary (secret; prefer LATCH_ADMIN_TOKEN)")
	fs.DurationVar(&cfg.TelemetryRetention, "telemetry-retention", telemetry.DefaultRetention, "how long telemetry events are kept after they occurred, e.g. 2160h (0 = forever)")
	fs.Var(&upstreams, "rpc-upstream", "RPC upstream of a network, <caip2>=<url>[,<url>…]; repeatable (file/env: separate entries with spaces)")
	fs.Var(&wsUpstreams, "rpc-ws-upstream", "WebSocket upstream of a network for the RPC proxy's subscriptions (GET /v1 upgraded), <caip2>=<ws(s) url>[,<url>…]; repeatable")
	fs.StringVar(&devChains, "dev-chains", "31337,31338", "chain ids of the in-process dev networks (latchd dev)")
	fs.StringVar(&trusted, "trusted-proxies", "", "comma-separated CIDRs of proxies whose X-Forwarded-For is trusted")
	fs.IntVar(&cfg.IPv6Prefix, "ipv6-prefix", httpx.DefaultIPv6Prefix, "every per-IP limit counts an IPv6 client by its network of this many bits (32–128; 128 = the full address); IPv4 clients by their address")
	fs.IntVar(&cfg.IPRateLimit, "ip-rate-limit", 1200, "API requests per client IP per minute, each entry of an RPC batch counting as one (0 = no limit)")
	fs.IntVar(&cfg.RPCProjectLimit, "rpc-project-rate-limit", 60000, "RPC proxy requests per project per minute, each entry of a batch counting as one (0 = no limit)")
	fs.DurationVar(&cfg.RPCProbeInterval, "rpc-probe-interval", 15*time.Second, "how often the upstreams of networks in use are asked for their head, to rank them by health and lag (0 = never)")
	fs.StringVar(&cfg.LogLevel, "log-level", "info", "log level: debug, info, warn, error")
	fs.StringVar(&cfg.LogFormat, "log-format", "json", "log format: json or text")
	fs.DurationVar(&cfg.ShutdownTimeout, "shutdown-timeout", 15*time.Second, "time in-flight requests get to finish on shutdown")
	fs.StringVar(&cfg.DemoDir, "demo-dir", "", "latchd dev: directory of the built demo dapp to serve (make dev sets it)")
	fs.StringVar(&cfg.DemoAddr, "demo-addr", "127.0.0.1:5173", "latchd dev: listen address of the demo dapp")
	fs.StringVar(&cfg.RelayURL, "relay-url", "", "public URL of the WalletConnect relay (wss://host[/path]) that clients sign as their auth token's audience (required by latchd serve; latchd dev defaults to ws://<API listener address>)")
	fs.IntVar(&cfg.RelayMaxConnsPerIP, "relay-max-conns-per-ip", relay.DefaultMaxConnsPerIP, "relay websockets per client IP on one node (0 = no limit)")
	fs.IntVar(&cfg.RelayPublishRate, "relay-publish-rate", relay.DefaultPublishRate, "messages one relay websocket may publish per second (0 = no limit)")
	fs.IntVar(&cfg.RelayMaxTopics, "relay-max-topics", relay.DefaultMaxTopicsPerConn, "topics one relay websocket may subscribe to")
	fs.IntVar(&cfg.RelayMaxMessageBytes, "relay-max-message-bytes", relay.DefaultMaxMessageBytes, "largest message (bytes) one relay publish may carry")
	fs.DurationVar(&cfg.RelayMaxTTL, "relay-max-ttl", relay.DefaultMaxTTL, "longest TTL a relay message may ask to be kept for an offline peer")
	fs.IntVar(&cfg.RelayMailboxSize, "relay-mailbox-size", relay.DefaultMaxMessagesPerTopic, "undelivered messages each publisher may hold in one relay topic (a stranger filling a topic never refuses its rightful publisher)")
	finishAccount := accountFlags(fs, cfg)
	finishRelay := relayFlags(fs, cfg)
	finishAuth := authFlags(fs, cfg)
	finishNames := namesFlags(fs, cfg)
	finishSIWX := siwxFlags(fs, cfg)
	finishSocial := socialFlags(fs, cfg)
	finishSwap := swapFlags(fs, cfg)
	finishOnramp := onrampFlags(fs, cfg)
	finishBundler := bundlerFlags(fs, cfg)
	finishDependencies := dependencyFlags(fs, cfg)
	solanaDevFlags(fs, cfg)
	fs.String("config", "", "config file: one \"option = value\" line per setting, using the flag names")
	return fs, func() error {
		if err := finishAccount(); err != nil {
			return err
		}
		if err := finishRelay(); err != nil {
			return err
		}
		if err := finishAuth(); err != nil {
			return err
		}
		if err := finishNames(); err != nil {
			return err
		}
		if err := finishSIWX(); err != nil {
			return err
		}
		if err := finishSocial(); err != nil {
			return err
		}
		if err := finishSwap(); err != nil {
			return err
		}
		if err := finishOnramp(); err != nil {
			return err
		}
		if err := finishBundler(); err != nil {
			return err
		}
		if err := finishDependencies(); err != nil {
			return err
		}
		cfg.RPCUpstreams, cfg.RPCWSUpstreams = upstreams, wsUpstreams
		for _, u := range append(append([]string(nil), cfg.RPCUpstreams...), cfg.RPCWSUpstreams...) {
			if _, _, err := network.ParseUpstreamFlag(u); err != nil {
				return err
			}
		}
		cfg.DevChains = nil
		for _, s := range strings.Split(devChains, ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			id, err := strconv.ParseUint(s, 10, 64)
			if err != nil || id == 0 || id >= 1<<31 {
				return fmt.Errorf("--dev-chains: %q is not a chain id", s)
			}
			cfg.DevChains = append(cfg.DevChains, id)
		}
		cfg.TrustedProxies = nil
		for _, s := range strings.Split(trusted, ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			_, n, err := net.ParseCIDR(s)
			if err != nil {
				return fmt.Errorf("--trusted-proxies: %q is not a CIDR", s)
			}
			cfg.TrustedProxies = append(cfg.TrustedProxies, n)
		}
		switch cfg.LogLevel {
		case "debug", "info", "warn", "error":
		default:
			return fmt.Errorf("--log-level: %q is not one of debug, info, warn, error", cfg.LogLevel)
		}
		if cfg.LogFormat != "json" && cfg.LogFormat != "text" {
			return fmt.Errorf("--log-format: %q is not json or text", cfg.LogFormat)
		}
		if cfg.RedisURL != "" {
			if _, err := redis.ParseURL(cfg.RedisURL); err != nil {
				return fmt.Errorf("--redis-url: %s: %w", redactURL(cfg.RedisURL), unwrapURLError(err))
			}
		}
		if n := len(cfg.AdminToken); n > 0 && n < minAdminTokenLen {
			return fmt.Errorf("--admin-token is %d characters; it must be at least %d (e.g. openssl rand -hex 32)", n, minAdminTokenLen)
		}
		if cfg.TelemetryRetention != 0 && cfg.TelemetryRetention < 24*time.Hour {
			return fmt.Errorf("--telemetry-retention must be 0 (keep forever) or at least 24h")
		}
		if cfg.RPCProbeInterval < 0 {
			return fmt.Errorf("--rpc-probe-interval must not be negative")
		}
		if cfg.IPv6Prefix < 32 || cfg.IPv6Prefix > 128 {
			return fmt.Errorf("--ipv6-prefix must be between 32 and 128, got %d", cfg.IPv6Prefix)
		}
		if cfg.IPRateLimit < 0 || cfg.RPCProjectLimit < 0 {
			return fmt.Errorf("rate limits must not be negative")
		}
		if cfg.RelayURL != "" {
			if _, err := relay.ParsePublicURL(cfg.RelayURL); err != nil {
				return fmt.Errorf("--relay-url: %q: %w", cfg.RelayURL, err)
			}
		}
		if cfg.RelayMaxConnsPerIP < 0 || cfg.RelayPublishRate < 0 {
			return fmt.Errorf("--relay-max-conns-per-ip and --relay-publish-rate must not be negative")
		}
		for name, n := range map[string]int{"--relay-max-topics": cfg.RelayMaxTopics, "--relay-max-message-bytes": cfg.RelayMaxMessageBytes, "--relay-mailbox-size": cfg.RelayMailboxSize} {
			if n <= 0 {
				return fmt.Errorf("%s must be positive", name)
			}
		}
		if cfg.RelayMaxTTL < time.Minute {
			return fmt.Errorf("--relay-max-ttl must be at least 1m")
		}
		if err := checkPublicURLs(cfg); err != nil {
			return err
		}
		for name, addr := range map[string]string{"--addr": cfg.Addr, "--frame-addr": cfg.FrameAddr, "--demo-addr": cfg.DemoAddr} {
			if _, _, err := net.SplitHostPort(addr); err != nil {
				return fmt.Errorf("%s: %q is not host:port", name, addr)
			}
		}
		if _, _, err := net.SplitHostPort(cfg.AdminAddr); cfg.AdminAddr != "" && err != nil {
			return fmt.Errorf("--admin-addr: %q is not host:port (empty for no admin listener)", cfg.AdminAddr)
		}
		return nil
	}
}

// checkPublicURLs checks --api-url and --frame-url: absolute http(s) URLs
// without credentials, query or fragment; the frame's is an origin (its page
// and scripts are served from its root).
func checkPublicURLs(cfg *Config) error {
	for _, f := range []struct {
		name, value string
		origin      bool
	}{{"--api-url", cfg.APIURL, false}, {"--frame-url", cfg.FrameURL, true}} {
		if f.value == "" {
			continue
		}
		u, err := url.Parse(f.value)
		switch {
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "":
			return fmt.Errorf("%s: %q is not an absolute http:// or https:// URL", f.name, f.value)
		case u.User != nil || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(f.value, "?") || strings.HasSuffix(f.value, "#"):
			return fmt.Errorf("%s: %q must have no user, query or fragment", f.name, f.value)
		case f.origin && strings.Trim(u.Path, "/") != "":
			return fmt.Errorf("%s: %q must be an origin (scheme://host[:port]) without a path", f.name, f.value)
		}
	}
	return nil
}

// requirePublicURLs is latchd serve's check: a listener on every interface
// (0.0.0.0, [::] or no host) has no address a browser could use, so the
// URLs latchd hands out (the frame's API URL, the frame origin and the
// device-approval links in mails) need --api-url and --frame-url.
func requirePublicURLs(cfg Config) error {
	for _, l := range []struct{ addr, addrFlag, url, urlFlag string }{
		{cfg.Addr, "--addr", cfg.APIURL, "--api-url"},
		{cfg.FrameAddr, "--frame-addr", cfg.FrameURL, "--frame-url"},
	} {
		if l.url != "" {
			continue
		}
		host, _, err := net.SplitHostPort(l.addr)
		if ip := net.ParseIP(host); err == nil && (host == "" || ip != nil && ip.IsUnspecified()) {
			return fmt.Errorf("latchd serve: %s %s listens on every interface, which is no address for a browser: set %s (%s) to its public URL", l.addrFlag, l.addr, l.urlFlag, EnvName(strings.TrimPrefix(l.urlFlag, "--")))
		}
	}
	return nil
}

// parseFlags parses args, then fills every flag not given on the command line
// from LATCH_* variables and then from the config file.
func parseFlags(fs *flag.FlagSet, args []string, getenv func(string) string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	fromEnv := map[string]bool{}
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if err != nil || set[f.Name] {
			return
		}
		if v := getenv(EnvName(f.Name)); v != "" {
			fromEnv[f.Name] = true
			err = setFlag(fs, f.Name, v, "environment variable "+EnvName(f.Name))
		}
	})
	if err != nil {
		return err
	}
	path := fs.Lookup("config").Value.String()
	if path == "" {
		return nil
	}
	values, err := readConfigFile(path)
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if fs.Lookup(k) == nil || k == "config" {
			return fmt.Errorf("%s: unknown setting %q", path, k)
		}
		if set[k] || fromEnv[k] {
			continue
		}
		if err := setFlag(fs, k, values[k], path); err != nil {
			return err
		}
	}
	return nil
}

// setFlag sets a flag from the environment or the file; a repeatable flag
// takes a space-separated list there.
func setFlag(fs *flag.FlagSet, name, value, from string) error {
	f := fs.Lookup(name)
	if _, repeat := f.Value.(*stringList); repeat {
		for _, v := range strings.Fields(value) {
			if err := f.Value.Set(v); err != nil {
				return fmt.Errorf("%s: %w", from, err)
			}
		}
		return nil
	}
	if err := fs.Set(name, value); err != nil {
		return fmt.Errorf("%s: invalid value for %s: %w", from, name, err)
	}
	return nil
}

// ParseConfig parses and checks latchd's options as latchd serve does, from
// args and from environ ("KEY=value" entries; the config file when --config
// names one). Unlike latchd, it refuses a LATCH_* entry that names no option:
// deployment files are checked with it, where a misspelt variable would
// otherwise be ignored.
func ParseConfig(args, environ []string) (Config, error) {
	var cfg Config
	fs, finish := flagSet("latchd", &cfg, io.Discard)
	env := map[string]string{}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	known := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) { known[EnvName(f.Name)] = true })
	for k := range env {
		if strings.HasPrefix(k, "LATCH_") && !known[k] {
			return cfg, fmt.Errorf("environment variable %s names no latchd option", k)
		}
	}
	if err := parseFlags(fs, args, func(k string) string { return env[k] }); err != nil {
		return cfg, err
	}
	return cfg, finish()
}

// EnvName is the environment variable of a flag: addr → LATCH_ADDR.
func EnvName(flagName string) string {
	return "LATCH_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

func readConfigFile(path string) (map[string]string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config file: %w", err)
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want key = value", path, n)
		}
		k, v = strings.TrimSpace(k), strings.Trim(strings.TrimSpace(v), `"`)
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("%s:%d: %s set twice", path, n, k)
		}
		out[k] = v
	}
	return out, sc.Err()
}

// redactURL is u without its password, for messages; a URL that does not
// parse is not shown at all, since its password cannot be found reliably.
func redactURL(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		return "(unparsable URL)"
	}
	return parsed.Redacted()
}

// unwrapURLError drops the *url.Error wrapper, whose message repeats the
// whole URL, password included.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
