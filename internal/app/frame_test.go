package app_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/frameapp"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store/storetest"
)

// TestMain_FramePage: the frame listener serves the frame per project, with
// a CSP that lets only the project's origins embed it and its scripts come
// only from the frame origin. On a checkout where the frame is not built
// (`make build` builds it) the page is a clear 503 instead.
func TestMain_FramePage(t *testing.T) {
	cfg := app.Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", AdminAddr: "", DataDir: storetest.SQLiteDir(t), ShutdownTimeout: 5 * time.Second}
	m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	p := &project.Project{Name: "Dapp", Origins: []string{"https://dapp.example"}, Features: project.DefaultFeatures()}
	if err := m.Projects.Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	frame := client{t: t, base: m.FrameURL()}

	page := frame.do("GET", "/?projectId="+p.ID+"&chainId=eip155%3A1&version=1&enableLogger=false", "")
	built, err := frameapp.New(frameapp.Config{APIURL: m.APIURL()})
	if err != nil {
		t.Fatal(err)
	}
	if !built.Built() {
		frame.want(page, 503, frameapp.MsgNotBuilt)
		return
	}
	frame.want(page, 200, `<meta name="latch-api" content="`+m.APIURL()+`"`)
	csp := page.header.Get("Content-Security-Policy")
	want := "default-src 'none'; script-src 'self'; connect-src 'self' " + m.APIURL() + "; frame-ancestors https://dapp.example; base-uri 'none'; form-action 'none'"
	if csp != want {
		t.Fatalf("CSP\n got %s\nwant %s", csp, want)
	}

	// The page's one script is served from the frame origin.
	src := regexp.MustCompile(`src="(/assets/[^"]+\.js)"`).FindSubmatch(page.body)
	if src == nil || strings.Count(string(page.body), "<script") != 1 {
		t.Fatalf("page scripts: %s", page.body)
	}
	js := frame.do("GET", string(src[1]), "")
	if js.status != http.StatusOK || js.header.Get("Content-Type") != "text/javascript; charset=utf-8" || len(js.body) < 1000 {
		t.Fatalf("script %s: %d %v", src[1], js.status, js.header)
	}

	t.Run("ErrUnknownProject", func(t *testing.T) {
		frame.want(frame.do("GET", "/?projectId="+strings.Repeat("0", 32), ""), 404)
		frame.want(frame.do("GET", "/", ""), 400, "Project ID Not Configured")
	})
}
