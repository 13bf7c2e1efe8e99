package app

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/mail/smtptest"
)

const (
	testFrameOrigin = "https://frame.example"
	testDappOrigin  = "https://app.example" // mustRPCHarness's project origin
)

// send makes a request to m's API listener with the headers in hdr (name,
// value, …) and returns the answer.
func send(t *testing.T, m *Main, method, path, body string, hdr ...string) (int, http.Header, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, m.APIURL()+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

const gasPrice = `{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice"}`

// The frame reads the chain through the RPC proxy from its own origin
// (--frame-url), which no project lists: POST /v1 admits it besides the
// project's origins, preflight included, and keeps every other check.
func TestRPCProxy_FrameOrigin(t *testing.T) {
	h := mustRPCHarness(t, func(c *Config) { c.FrameURL = testFrameOrigin })
	rpc := "/v1?chainId=eip155:1&projectId=" + h.projectID

	t.Run("OK", func(t *testing.T) {
		for _, path := range []string{rpc, strings.Replace(rpc, "/v1?", "/v1/?", 1)} {
			for _, origin := range []string{testFrameOrigin, testDappOrigin} {
				status, hdr, body := send(t, h.m, "POST", path, gasPrice, "Origin", origin, "Content-Type", "application/json")
				if status != http.StatusOK || !strings.Contains(body, `"result":"0x1"`) || hdr.Get("Access-Control-Allow-Origin") != origin {
					t.Errorf("POST %s from %s: %d %s (ACAO %q)", path, origin, status, body, hdr.Get("Access-Control-Allow-Origin"))
				}
			}
		}
	})
	t.Run("ErrForeignOrigin", func(t *testing.T) {
		for _, origin := range []string{"https://evil.example", "http://frame.example", "https://frame.example:8443"} {
			status, hdr, body := send(t, h.m, "POST", rpc, gasPrice, "Origin", origin, "Content-Type", "application/json")
			if status != http.StatusForbidden || !strings.Contains(body, "Origin not allowed") || hdr.Get("Access-Control-Allow-Origin") != "" {
				t.Errorf("from %s: %d %s, want 403", origin, status, body)
			}
		}
	})
	t.Run("ErrProject", func(t *testing.T) {
		if status, _, body := send(t, h.m, "POST", "/v1?chainId=eip155:1", gasPrice, "Origin", testFrameOrigin); status != http.StatusUnauthorized {
			t.Errorf("no projectId: %d %s, want 401", status, body)
		}
		if status, _, body := send(t, h.m, "POST", "/v1?chainId=eip155:1&projectId="+strings.Repeat("0", 32), gasPrice, "Origin", testFrameOrigin); status < 400 || status >= 500 {
			t.Errorf("unknown project: %d %s, want a 4xx", status, body)
		}
	})
	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		status, _, body := send(t, h.m, "POST", rpc, `{"jsonrpc":"2.0","id":1,"method":"admin_peers"}`, "Origin", testFrameOrigin)
		if !strings.Contains(body, "is not allowed through the latchd RPC proxy") {
			t.Errorf("admin_peers from the frame: %d %s", status, body)
		}
	})
	t.Run("ErrOtherRoutes", func(t *testing.T) {
		// Only the RPC proxy admits the frame; the project's other routes do not.
		status, _, body := send(t, h.m, "GET", "/v1/supported-chains?projectId="+h.projectID, "", "Origin", testFrameOrigin)
		if status != http.StatusForbidden {
			t.Errorf("GET /v1/supported-chains from the frame: %d %s, want 403", status, body)
		}
	})
	t.Run("Preflight", func(t *testing.T) {
		preflight := func(path, origin, headers string) (int, http.Header) {
			status, hdr, _ := send(t, h.m, "OPTIONS", path, "", "Origin", origin, "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", headers)
			return status, hdr
		}
		for _, origin := range []string{testFrameOrigin, testDappOrigin} {
			if status, hdr := preflight(rpc, origin, "content-type"); status != http.StatusNoContent || hdr.Get("Access-Control-Allow-Origin") != origin {
				t.Errorf("preflight from %s: %d %v", origin, status, hdr)
			}
		}
		for name, tc := range map[string]struct{ path, origin, headers string }{
			"foreign origin":      {rpc, "https://evil.example", "content-type"},
			"header":              {rpc, testFrameOrigin, "content-type, x-evil"},
			"other route":         {"/v1/networks?projectId=" + h.projectID, testFrameOrigin, ""},
			"no project":          {"/v1?chainId=eip155:1", testFrameOrigin, "content-type"},
			"another /v1 subpath": {"/v1/fungible/price?projectId=" + h.projectID, testFrameOrigin, "content-type"},
		} {
			if status, hdr := preflight(tc.path, tc.origin, tc.headers); status < 400 || hdr.Get("Access-Control-Allow-Origin") != "" {
				t.Errorf("preflight, %s: %d %v, want a refusal", name, status, hdr)
			}
		}
	})
}

// The frame's requests count against the project's RPC budget like the
// dapp's: one budget for both origins.
func TestRPCProxy_FrameOriginProjectLimit(t *testing.T) {
	h := mustRPCHarness(t, func(c *Config) { c.FrameURL, c.RPCProjectLimit = testFrameOrigin, 2 })
	rpc := "/v1?chainId=eip155:1&projectId=" + h.projectID
	for i, origin := range []string{testFrameOrigin, testDappOrigin} {
		if status, _, body := send(t, h.m, "POST", rpc, gasPrice, "Origin", origin); status != http.StatusOK {
			t.Fatalf("request %d: %d %s", i+1, status, body)
		}
	}
	if status, _, body := send(t, h.m, "POST", rpc, gasPrice, "Origin", testFrameOrigin); status != http.StatusTooManyRequests || !strings.Contains(body, "-32005") {
		t.Fatalf("third request (budget 2): %d %s, want 429", status, body)
	}
}

// frameBuild is a frame build as vite writes it, so that the frame page
// is served whether or not this checkout has built the frame.
var frameBuild = fstest.MapFS{
	"index.html":        {Data: []byte(`<!doctype html><meta name="latch-api" content="__LATCH_API_URL__"><script type="module" crossorigin src="/assets/index-t.js"></script>`)},
	"assets/index-t.js": {Data: []byte(`console.log("frame")`)},
}

// --api-url is what the frame page tells the frame (and its CSP allows),
// and --frame-url is the origin the API admits for the frame and the base
// of the device-approval link in the mail; without them, the listeners'
// addresses.
func TestMain_PublicURLs(t *testing.T) {
	const apiURL, frameURL = "https://api.example.com/latch", "https://wallet.example.com"
	srv := smtptest.Start(t, smtptest.Options{User: "latch", Password: "pw"})
	m, p := runAuthMain(t, srv, func(m *Main) {
		m.Config.APIURL, m.Config.FrameURL = apiURL+"/", frameURL
		m.frameFiles = frameBuild
	})

	page := frameGet(t, m, "/?projectId="+p.ID)
	if !strings.Contains(page.body, `<meta name="latch-api" content="`+apiURL+`">`) {
		t.Errorf("frame page does not carry --api-url: %s", page.body)
	}
	if csp := page.header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self' https://api.example.com;") {
		t.Errorf("CSP %q does not allow --api-url's origin", csp)
	}

	c := authClient{t: t, base: m.APIURL(), project: p.ID, origin: frameURL}
	var start auth.StartResult
	c.call("POST", "/auth/v1/email/start", "", map[string]string{"email": flowEmail, "deviceId": "dev-0123456789abcdefghijk"}, 200, &start)
	got := srv.Received()
	if len(got) != 1 {
		t.Fatalf("%d mails", len(got))
	}
	_, text := mailText(t, got[0].Data)
	if link := linkPattern.FindString(text); !strings.HasPrefix(link, frameURL+auth.ApprovePath+"?token=") {
		t.Errorf("approval link %q, want it on --frame-url", link)
	}

	t.Run("Defaults", func(t *testing.T) {
		d := runServeMain(t, nil)
		if d.PublicAPIURL() != d.APIURL() || !strings.HasPrefix(d.FrameURL(), "http://127.0.0.1:") {
			t.Fatalf("PublicAPIURL %q (API %q), FrameURL %q", d.PublicAPIURL(), d.APIURL(), d.FrameURL())
		}
	})
}

type frameAnswer struct {
	header http.Header
	body   string
}

func frameGet(t *testing.T, m *Main, path string) frameAnswer {
	t.Helper()
	resp, err := http.Get("http://" + m.frameLn.Addr().String() + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
	}
	return frameAnswer{resp.Header, string(b)}
}

func TestConfig_PublicURLs(t *testing.T) {
	parse := func(args ...string) (Config, error) { return parseConfig("latchd serve", args, io.Discard) }
	t.Run("OK", func(t *testing.T) {
		cfg, err := parse("--api-url", "https://api.example.com/latch", "--frame-url", "https://wallet.example.com/")
		if err != nil || cfg.APIURL != "https://api.example.com/latch" || cfg.FrameURL != "https://wallet.example.com/" {
			t.Fatalf("%+v %v", cfg, err)
		}
		cfg, err = ParseConfig(nil, []string{"LATCH_API_URL=http://localhost:8080"})
		if err != nil || cfg.APIURL != "http://localhost:8080" {
			t.Fatalf("LATCH_API_URL: %q %v", cfg.APIURL, err)
		}
	})
	for name, tc := range map[string]struct{ args []string }{
		"ErrAPIScheme":     {[]string{"--api-url", "ftp://api.example.com"}},
		"ErrAPIRelative":   {[]string{"--api-url", "api.example.com"}},
		"ErrAPIUser":       {[]string{"--api-url", "https://u:p@api.example.com"}},
		"ErrAPIQuery":      {[]string{"--api-url", "https://api.example.com/?a=1"}},
		"ErrFrameScheme":   {[]string{"--frame-url", "wss://wallet.example.com"}},
		"ErrFramePath":     {[]string{"--frame-url", "https://example.com/wallet"}},
		"ErrFrameFragment": {[]string{"--frame-url", "https://wallet.example.com#x"}},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := parse(tc.args...); err == nil || !strings.Contains(err.Error(), tc.args[0]) {
				t.Fatalf("%v: err %v", tc.args, err)
			}
		})
	}
}

// latchd serve refuses to start when a listener binds every interface and
// its public URL is not given: no link it formed would reach it.
func TestCLI_ServeRequiresPublicURLs(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // were it to start, it would stop at once
	base := []string{"serve", "--admin-addr", "", "--relay-url", "wss://relay.example.com",
		"--auth-secret", testAuthSecret, "--auth-kek", testAuthKEK, "--auth-recovery-key", testAuthRecovery}
	for _, tc := range []struct {
		args []string
		want string // "" = no complaint about public URLs
	}{
		{[]string{"--addr", "0.0.0.0:0", "--frame-addr", "127.0.0.1:0"}, "set --api-url (LATCH_API_URL)"},
		{[]string{"--addr", "[::]:0", "--frame-addr", "127.0.0.1:0"}, "set --api-url"},
		{[]string{"--addr", ":0", "--frame-addr", "127.0.0.1:0"}, "set --api-url"},
		{[]string{"--addr", "127.0.0.1:0", "--frame-addr", "0.0.0.0:0"}, "set --frame-url (LATCH_FRAME_URL)"},
		{[]string{"--addr", "0.0.0.0:0", "--frame-addr", "0.0.0.0:0", "--api-url", "https://api.example.com", "--frame-url", "https://wallet.example.com"}, ""},
		{[]string{"--addr", "127.0.0.1:0", "--frame-addr", "127.0.0.1:0"}, ""},
	} {
		var stderr strings.Builder
		args := append(append(append([]string{}, base...), tc.args...), "--data-dir", t.TempDir())
		code := CLI(ctx, args, io.Discard, &stderr)
		if tc.want == "" {
			if strings.Contains(stderr.String(), "listens on every interface") {
				t.Errorf("%v: %q", tc.args, stderr.String())
			}
			continue
		}
		if code != 1 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, %q; want %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}
