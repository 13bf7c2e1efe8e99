package frameapp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/latchkit/latch/internal/frameapp"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store/storetest"
)

// build is a frame build as vite writes it.
var build = fstest.MapFS{
	"index.html":             {Data: []byte(`<!doctype html><meta name="latch-api" content="__LATCH_API_URL__"><script type="module" crossorigin src="/assets/index-abc123.js"></script>`)},
	"assets/index-abc123.js": {Data: []byte(`console.log("frame")`)},
	"PLACEHOLDER":            {Data: []byte("placeholder")},
	"assets/.hidden":         {Data: []byte("no")},
}

func mustProjects(t *testing.T, origins ...string) (*project.Service, string) {
	t.Helper()
	svc := project.NewService(storetest.MustOpenSQLite(t))
	p := &project.Project{Name: "Demo", Origins: origins, Features: project.DefaultFeatures()}
	if err := svc.Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return svc, p.ID
}

func get(t *testing.T, h http.HandlerFunc, pattern, target string) *http.Response {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc(pattern, h)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
	return rec.Result()
}

func body(t *testing.T, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHandler_ServePage(t *testing.T) {
	projects, id := mustProjects(t, "https://app.example", "https://*.dapp.example")
	h, err := frameapp.New(frameapp.Config{Projects: projects, APIURL: "https://api.example:8443/", Files: build})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("OK", func(t *testing.T) {
		r := get(t, h.ServePage, "GET /{$}", "/?projectId="+id+"&chainId=eip155:1&version=1&enableLogger=false")
		if r.StatusCode != 200 {
			t.Fatalf("status %d", r.StatusCode)
		}
		csp := r.Header.Get("Content-Security-Policy")
		for _, want := range []string{
			"default-src 'none'",
			"script-src 'self';",
			"connect-src 'self' https://api.example:8443;",
			"frame-ancestors https://*.dapp.example https://app.example;",
			"base-uri 'none'",
		} {
			if !strings.Contains(csp, want) {
				t.Errorf("CSP %q lacks %q", csp, want)
			}
		}
		if strings.Contains(csp, "unsafe") || strings.Contains(csp, "localhost") {
			t.Errorf("CSP %q", csp)
		}
		if r.Header.Get("Cache-Control") != "no-store" || r.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("headers %v", r.Header)
		}
		if b := body(t, r); !strings.Contains(b, `content="https://api.example:8443"`) || strings.Contains(b, "__LATCH_API_URL__") {
			t.Errorf("page %s", b)
		}
	})

	t.Run("SmartAccounts", func(t *testing.T) {
		// Without bundler networks the list is empty, not missing.
		if b := body(t, get(t, h.ServePage, "GET /{$}", "/?projectId="+id)); !strings.Contains(b, `<meta name="latch-smart-accounts" content="[]">`) {
			t.Errorf("page without networks %s", b)
		}
		nets := []frameapp.SmartAccountNetwork{{ChainID: 31337, EntryPoint: "0x00000000000000000000000000000000000000e1", Factory: "0x00000000000000000000000000000000000000f1"}}
		withNets, err := frameapp.New(frameapp.Config{Projects: projects, APIURL: "https://api.example:8443/", Files: build, SmartAccounts: nets})
		if err != nil {
			t.Fatal(err)
		}
		b := body(t, get(t, withNets.ServePage, "GET /{$}", "/?projectId="+id))
		want := `<meta name="latch-api" content="https://api.example:8443"><meta name="latch-smart-accounts" content="[{&#34;chainId&#34;:31337,&#34;entryPoint&#34;:&#34;0x00000000000000000000000000000000000000e1&#34;,&#34;factory&#34;:&#34;0x00000000000000000000000000000000000000f1&#34;}]">`
		if !strings.Contains(b, want) {
			t.Errorf("page %s\nwant %s", b, want)
		}
	})

	t.Run("ErrProjectIDRequired", func(t *testing.T) {
		if r := get(t, h.ServePage, "GET /{$}", "/"); r.StatusCode != 400 {
			t.Fatalf("status %d", r.StatusCode)
		}
		if r := get(t, h.ServePage, "GET /{$}", "/?projectId=nothex"); r.StatusCode != 400 {
			t.Fatalf("malformed: status %d", r.StatusCode)
		}
	})

	t.Run("ErrUnknownProject", func(t *testing.T) {
		r := get(t, h.ServePage, "GET /{$}", "/?projectId="+strings.Repeat("ab", 16))
		if r.StatusCode != 404 || r.Header.Get("Content-Security-Policy") != "" {
			t.Fatalf("status %d %v", r.StatusCode, r.Header)
		}
	})

	t.Run("NoOrigins", func(t *testing.T) {
		projects, id := mustProjects(t)
		h, err := frameapp.New(frameapp.Config{Projects: projects, APIURL: "http://127.0.0.1:8080", Files: build})
		if err != nil {
			t.Fatal(err)
		}
		csp := get(t, h.ServePage, "GET /{$}", "/?projectId="+id).Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Fatalf("CSP %q", csp)
		}
	})

	t.Run("DevOrigins", func(t *testing.T) {
		h, err := frameapp.New(frameapp.Config{Projects: projects, APIURL: "http://127.0.0.1:8080", DevOrigins: true, Files: build})
		if err != nil {
			t.Fatal(err)
		}
		csp := get(t, h.ServePage, "GET /{$}", "/?projectId="+id).Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors https://*.dapp.example https://app.example http://localhost:* http://127.0.0.1:*;") {
			t.Fatalf("CSP %q", csp)
		}
	})
}

// A project row stored before the origin rules were strict (latchd refuses
// to start with one): only its valid origins reach frame-ancestors, so a
// semicolon, a quote or a wildcard over a public suffix adds nothing.
func TestHandler_ServePageStoredBadOrigins(t *testing.T) {
	db := storetest.MustOpenSQLite(t)
	projects := project.NewService(db)
	p := &project.Project{Name: "Old", Origins: []string{"https://app.example"}, Features: project.DefaultFeatures()}
	if err := projects.Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(context.Background(), `UPDATE projects SET origins = ? WHERE id = ?`,
		`["https://app.example","https://x.example; script-src *","https://y.example 'unsafe-inline'","https://*.com","HTTPS://Z.example"]`, p.ID); err != nil {
		t.Fatal(err)
	}
	h, err := frameapp.New(frameapp.Config{Projects: projects, APIURL: "https://api.example", Files: build})
	if err != nil {
		t.Fatal(err)
	}
	csp := get(t, h.ServePage, "GET /{$}", "/?projectId="+p.ID).Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "; frame-ancestors https://app.example; ") || strings.Count(csp, "script-src") != 1 || strings.Contains(csp, "unsafe") || strings.Contains(csp, "*.com") || strings.Contains(csp, "Z.example") {
		t.Fatalf("CSP %q", csp)
	}
}

func TestHandler_ServeAsset(t *testing.T) {
	projects, _ := mustProjects(t)
	h, err := frameapp.New(frameapp.Config{Projects: projects, APIURL: "http://127.0.0.1:8080", Files: build})
	if err != nil {
		t.Fatal(err)
	}
	r := get(t, h.ServeAsset, "GET /assets/{file}", "/assets/index-abc123.js")
	if r.StatusCode != 200 || r.Header.Get("Content-Type") != "text/javascript; charset=utf-8" || !strings.Contains(r.Header.Get("Cache-Control"), "immutable") {
		t.Fatalf("status %d %v", r.StatusCode, r.Header)
	}
	if b := body(t, r); b != `console.log("frame")` {
		t.Fatalf("body %q", b)
	}
	for _, target := range []string{"/assets/missing.js", "/assets/.hidden", "/assets/..%2fPLACEHOLDER"} {
		if r := get(t, h.ServeAsset, "GET /assets/{file}", target); r.StatusCode != 404 {
			t.Errorf("%s: status %d", target, r.StatusCode)
		}
	}
}

func TestHandler_NotBuilt(t *testing.T) {
	projects, id := mustProjects(t, "https://app.example")
	h, err := frameapp.New(frameapp.Config{Projects: projects, APIURL: "http://127.0.0.1:8080", Files: fstest.MapFS{"PLACEHOLDER": {Data: []byte("x")}}})
	if err != nil {
		t.Fatal(err)
	}
	if h.Built() {
		t.Fatal("Built() with no index.html")
	}
	for _, tc := range []struct {
		h       http.HandlerFunc
		pattern string
		target  string
	}{{h.ServePage, "GET /{$}", "/?projectId=" + id}, {h.ServeAsset, "GET /assets/{file}", "/assets/index.js"}} {
		r := get(t, tc.h, tc.pattern, tc.target)
		if b := body(t, r); r.StatusCode != 503 || strings.TrimSpace(b) != frameapp.MsgNotBuilt {
			t.Errorf("%s: %d %q", tc.target, r.StatusCode, b)
		}
	}
}

func TestNew(t *testing.T) {
	for _, bad := range []string{"", "/relative", "ftp://x", "http://user@x"} {
		if _, err := frameapp.New(frameapp.Config{APIURL: bad, Files: build}); err == nil {
			t.Errorf("API URL %q accepted", bad)
		}
	}
	if _, err := frameapp.New(frameapp.Config{APIURL: "http://x", Files: fstest.MapFS{"index.html": {Data: []byte("<html>")}}}); err == nil {
		t.Error("an index.html without the API URL placeholder accepted")
	}
	// The committed build (a placeholder on a fresh clone, the frame after make build).
	if _, err := frameapp.New(frameapp.Config{APIURL: "http://x"}); err != nil {
		t.Errorf("embedded build: %v", err)
	}
}
