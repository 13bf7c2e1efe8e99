package app

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseFlags_Precedence(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "latch.conf")
	os.WriteFile(file, []byte("# comment\naddr = 127.0.0.1:9001\nframe-addr = \"127.0.0.1:9002\"\nlog-level = debug\nrpc-upstream = eip155:1=http://a eip155:10=http://b\n"), 0o600)
	env := map[string]string{"LATCH_ADDR": "127.0.0.1:9003", "LATCH_IP_RATE_LIMIT": "7"}
	var cfg Config
	fs, finish := flagSet("t", &cfg, &bytes.Buffer{})
	err := parseFlags(fs, []string{"--config", file, "--log-level", "warn"}, func(k string) string { return env[k] })
	if err == nil {
		err = finish()
	}
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != "127.0.0.1:9003" { // env beats file
		t.Errorf("addr = %s", cfg.Addr)
	}
	if cfg.FrameAddr != "127.0.0.1:9002" { // file beats default
		t.Errorf("frame-addr = %s", cfg.FrameAddr)
	}
	if cfg.LogLevel != "warn" { // flag beats file
		t.Errorf("log-level = %s", cfg.LogLevel)
	}
	if cfg.IPRateLimit != 7 || len(cfg.RPCUpstreams) != 2 || cfg.ShutdownTimeout != 15*time.Second {
		t.Errorf("cfg = %+v", cfg)
	}
}

func TestParseFlags_Errors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.conf")
	os.WriteFile(bad, []byte("nonsense-option = 1\n"), 0o600)
	for name, tc := range map[string]struct {
		args []string
		env  map[string]string
	}{
		"UnknownFlag":     {args: []string{"--nope"}},
		"BadLevel":        {args: []string{"--log-level", "loud"}},
		"BadAddr":         {args: []string{"--addr", "8080"}},
		"BadUpstream":     {args: []string{"--rpc-upstream", "eip155:1"}},
		"BadWSUpstream":   {args: []string{"--rpc-ws-upstream", "eip155:1"}},
		"BadChain":        {args: []string{"--dev-chains", "31337,x"}},
		"BadCIDR":         {args: []string{"--trusted-proxies", "10.0.0.0"}},
		"BadEnvInt":       {env: map[string]string{"LATCH_IP_RATE_LIMIT": "many"}},
		"UnknownFileKey":  {args: []string{"--config", bad}},
		"MissingFile":     {args: []string{"--config", filepath.Join(dir, "none")}},
		"ExtraArgument":   {args: []string{"stray"}},
		"NegativeIPLimit": {args: []string{"--ip-rate-limit", "-1"}},
		"BadRedisScheme":  {args: []string{"--redis-url", "http://127.0.0.1:6379"}},
		"BadRedisDB":      {env: map[string]string{"LATCH_REDIS_URL": "redis://127.0.0.1:6379/x"}},
		"BadAdminAddr":    {args: []string{"--admin-addr", "8082"}},
		"ShortRetention":  {args: []string{"--telemetry-retention", "1h"}},
		"NegRetention":    {args: []string{"--telemetry-retention", "-24h"}},
		"ShortAdminToken": {env: map[string]string{"LATCH_ADMIN_TOKEN": "0123456789abcdef0123456789abcde"}},
		"BadIPFSGateway":  {args: []string{"--ipfs-gateway", "http://ipfs.io/ipfs"}},
	} {
		t.Run(name, func(t *testing.T) {
			var cfg Config
			fs, finish := flagSet("t", &cfg, &bytes.Buffer{})
			err := parseFlags(fs, tc.args, func(k string) string { return tc.env[k] })
			if err == nil {
				err = finish()
			}
			if err == nil {
				t.Fatal("want error")
			}
		})
	}
}

func TestParseFlags_RedisURLPasswordHidden(t *testing.T) {
	for _, u := range []string{"http://user:s3cret@127.0.0.1:6379", "redis://user:s3cret@127.0.0.1:6379/db", "redis://user:s3cret@[::1"} {
		var cfg Config
		fs, finish := flagSet("t", &cfg, &bytes.Buffer{})
		err := parseFlags(fs, []string{"--redis-url", u}, func(string) string { return "" })
		if err == nil {
			err = finish()
		}
		if err == nil || !strings.Contains(err.Error(), "--redis-url") || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: error %v, want one naming --redis-url without the password", u, err)
		}
	}
}

func TestCLI_HelpListsEveryOption(t *testing.T) {
	var out bytes.Buffer
	if code := CLI(context.Background(), []string{"--help"}, &out, &out); code != 0 {
		t.Fatalf("exit %d", code)
	}
	var cfg Config
	fs, _ := flagSet("t", &cfg, &bytes.Buffer{})
	fs.VisitAll(func(f *flag.Flag) {
		if !strings.Contains(out.String(), "--"+f.Name+" ") || !strings.Contains(out.String(), EnvName(f.Name)) {
			t.Errorf("help lacks --%s or its variable", f.Name)
		}
	})
	for _, want := range []string{"--addr", "--frame-addr", "--data-dir", "--database-url", "--admin-token", "--rpc-upstream", "--config", "LATCH_DATABASE_URL", "latchd project create"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("help lacks %q", want)
		}
	}
}

func TestParseFlags_AdminToken(t *testing.T) {
	for token, ok := range map[string]bool{"": true, "short": false, "0123456789abcdef0123456789abcde": false, "0123456789abcdef0123456789abcdef": true} {
		var cfg Config
		fs, finish := flagSet("t", &cfg, &bytes.Buffer{})
		err := parseFlags(fs, []string{"--admin-token", token}, func(string) string { return "" })
		if err == nil {
			err = finish()
		}
		if (err == nil) != ok || err != nil && !strings.Contains(err.Error(), "at least 32") {
			t.Errorf("token of %d characters: %v, want ok=%v", len(token), err, ok)
		}
		if err != nil && strings.Contains(err.Error(), token) {
			t.Errorf("the error shows the token: %v", err)
		}
	}
}

func TestParseConfig(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		cfg, err := ParseConfig([]string{"--ip-rate-limit", "7"}, []string{"LATCH_REDIS_URL=redis://r:6379/0", "LATCH_IP_RATE_LIMIT=9", "PATH=/bin"})
		if err != nil {
			t.Fatal(err)
		}
		if cfg.RedisURL != "redis://r:6379/0" || cfg.IPRateLimit != 7 {
			t.Fatalf("%+v", cfg)
		}
	})
	t.Run("ErrUnknownVariable", func(t *testing.T) {
		_, err := ParseConfig(nil, []string{"LATCH_REDIS_ULR=redis://r:6379/0"})
		if err == nil || !strings.Contains(err.Error(), "LATCH_REDIS_ULR names no latchd option") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrUnknownFlag", func(t *testing.T) {
		if _, err := ParseConfig([]string{"--redis-ulr", "x"}, nil); err == nil {
			t.Fatal("no error")
		}
	})
	t.Run("ErrBadValue", func(t *testing.T) {
		_, err := ParseConfig(nil, []string{"LATCH_ADMIN_TOKEN=short"})
		if err == nil || !strings.Contains(err.Error(), "--admin-token is 5 characters") {
			t.Fatalf("err = %v", err)
		}
	})
}
