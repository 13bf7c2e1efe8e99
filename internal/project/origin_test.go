package project_test

import (
	"context"
	"strings"
	"testing"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// The origin grammar: scheme, host and port only; a wildcard only as the
// whole first label, never directly over a public suffix. Each refused value
// is one that would add a source or a directive to the frame's CSP
// (frame-ancestors), or let any site of a public suffix embed the wallet.
func TestNormalizeOrigin(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{in: "https://app.example", want: "https://app.example"},
		{in: "HTTPS://App.Example/", want: "https://app.example"},
		{in: "https://app.example:443", want: "https://app.example"},
		{in: "http://app.example:80", want: "http://app.example"},
		{in: "https://app.example:8443", want: "https://app.example:8443"},
		{in: "http://localhost:5173", want: "http://localhost:5173"},
		{in: "http://127.0.0.1:8080", want: "http://127.0.0.1:8080"},
		{in: "https://xn--bcher-kva.example", want: "https://xn--bcher-kva.example"},
		{in: "https://*.example.com", want: "https://*.example.com"},
		{in: "https://*.preview.example.co.uk:8443", want: "https://*.preview.example.co.uk:8443"},
		{in: "https://*.app.github.io", want: "https://*.app.github.io"},

		// CSP injections: a second source, a second directive, a quoted keyword.
		{in: "https://app.example;script-src *", err: "must look like https://example.com"},
		{in: "https://app.example; frame-ancestors *", err: "must look like https://example.com"},
		{in: "https://app.example 'unsafe-inline'", err: "must look like https://example.com"},
		{in: "https://app.example'", err: "must look like https://example.com"},
		{in: `https://app.example"`, err: "must look like https://example.com"},
		{in: "https://a.example,https://b.example", err: "must look like https://example.com"},
		{in: "https://app.example\n", err: "must look like https://example.com"},
		{in: " https://app.example", err: "must look like https://example.com"},
		// Wildcards over public suffixes.
		{in: "https://*.com", err: `wildcard directly over the public suffix "com"`},
		{in: "https://*.co.uk", err: `wildcard directly over the public suffix "co.uk"`},
		{in: "https://*.github.io", err: `wildcard directly over the public suffix "github.io"`},
		{in: "https://*.localhost", err: "public suffix"},
		// Wildcards elsewhere.
		{in: "https://*", err: "wildcard as its whole first label"},
		{in: "https://a.*.example", err: "wildcard as its whole first label"},
		{in: "https://*.*.example.com", err: "wildcard as its whole first label"},
		{in: "https://a*.example.com", err: "wildcard as its whole first label"},
		{in: "https://*.10.0.0.1", err: "wildcard as its whole first label"},
		// Not an origin.
		{in: "app.example", err: "must look like"},
		{in: "ftp://app.example", err: "must look like"},
		{in: "javascript://app.example", err: "must look like"},
		{in: "https://app.example/path", err: "must look like"},
		{in: "https://app.example/?", err: "must look like"},
		{in: "https://app.example?x=1", err: "must look like"},
		{in: "https://app.example#frag", err: "must look like"},
		{in: "https://user@app.example", err: "must look like"},
		{in: "https://user:pw@app.example", err: "must look like"},
		{in: "https://", err: "must look like"},
		{in: "https://app.example:0", err: "port"},
		{in: "https://app.example:65536", err: "port"},
		{in: "https://app.example:08443", err: "port"},
		{in: "https://app.example:", err: "port"},
		{in: "https://[::1]:3000", err: "IPv6"},
		{in: "https://bücher.example", err: "must look like"},
		{in: "https://-app.example", err: "not a DNS name"},
		{in: "https://app..example", err: "not a DNS name"},
		{in: "https://app.example.", err: "not a DNS name"},
		{in: "https://" + strings.Repeat("a", 64) + ".example", err: "not a DNS name"},
	} {
		got, err := project.NormalizeOrigin(tc.in)
		if tc.err == "" {
			if err != nil || got != tc.want {
				t.Errorf("NormalizeOrigin(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
			continue
		}
		if apperr.Code(err) != apperr.Invalid || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("NormalizeOrigin(%q) = %q, %v; want an error with %q", tc.in, got, err, tc.err)
		}
	}
	// A browser's origin never has a wildcard.
	if _, err := project.ParseOrigin("https://*.example.com"); err == nil {
		t.Error("ParseOrigin took a wildcard")
	}
}

func TestProject_AllowsOriginWildcardPort(t *testing.T) {
	p := &project.Project{Origins: []string{"https://*.example.com:8443"}}
	for origin, want := range map[string]bool{
		"https://a.example.com:8443": true,
		"https://a.example.com":      false,
		"https://example.com:8443":   false,
		"https://a.example.com:9443": false,
	} {
		if got := p.AllowsOrigin(origin, false); got != want {
			t.Errorf("AllowsOrigin(%q) = %v", origin, got)
		}
	}
}

// A row an older latchd wrote while this one runs (it refused to start
// with one): the project requests see has only its valid origins.
func TestService_LookupDropsStoredBadOrigins(t *testing.T) {
	ctx := context.Background()
	db := storetest.MustOpenSQLite(t)
	svc := project.NewService(db)
	p := &project.Project{Name: "Old", Origins: []string{"https://shop.example"}, Features: project.DefaultFeatures()}
	if err := svc.Create(ctx, p); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, `UPDATE projects SET origins = ? WHERE id = ?`, `["https://shop.example","https://*.com","https://x.example;script-src *"]`, p.ID); err != nil {
		t.Fatal(err)
	}
	got, err := svc.Lookup(ctx, p.ID)
	if err != nil || strings.Join(got.Origins, " ") != "https://shop.example" {
		t.Fatalf("looked up origins %v, %v", got.Origins, err)
	}
	if got.AllowsOrigin("https://evil.com", false) || !got.AllowsOrigin("https://shop.example", false) {
		t.Fatal("a stored https://*.com allowed https://evil.com")
	}
}

func TestService_ValidateOrigins(t *testing.T) {
	svc := project.NewService(storetest.MustOpenSQLite(t))
	for _, o := range []string{"https://*.com", "https://a.example;script-src *", "https://a.example'"} {
		err := svc.Create(context.Background(), &project.Project{Name: "x", Origins: []string{o}})
		if apperr.Code(err) != apperr.Invalid {
			t.Errorf("create with %q: %v", o, err)
		}
	}
	if list, _ := svc.List(context.Background()); len(list) != 0 {
		t.Fatalf("%d refused projects stored", len(list))
	}
}

// Rows stored before the rules were strict: CheckStored names each project
// and value with the command that removes it; once removed, it passes.
func TestService_CheckStored(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := project.NewService(db)
		p := &project.Project{Name: "Shop", Origins: []string{"https://shop.example"}, Features: project.DefaultFeatures()}
		if err := svc.Create(ctx, p); err != nil {
			t.Fatal(err)
		}
		if err := svc.CheckStored(ctx); err != nil {
			t.Fatalf("good rows: %v", err)
		}
		if _, err := db.Exec(ctx, `UPDATE projects SET origins = ? WHERE id = ?`, `["https://shop.example","https://*.com","https://x.example; script-src *"]`, p.ID); err != nil {
			t.Fatal(err)
		}
		err := svc.CheckStored(ctx)
		if err == nil {
			t.Fatal("bad rows passed")
		}
		for _, want := range []string{`project "Shop" (` + p.ID + `)`, `origin "https://*.com"`, `origin "https://x.example; script-src *"`,
			"latchd project update --id " + p.ID + " --remove-origin 'https://*.com'"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q lacks %q", err, want)
			}
		}
		if _, err := db.Exec(ctx, `UPDATE projects SET origins = ? WHERE id = ?`, `["https://shop.example"]`, p.ID); err != nil {
			t.Fatal(err)
		}
		if err := svc.CheckStored(ctx); err != nil {
			t.Fatalf("after the fix: %v", err)
		}
	})
}

func TestProject_ReturnURLs(t *testing.T) {
	svc := project.NewService(storetest.MustOpenSQLite(t))
	ctx := context.Background()
	p := &project.Project{Name: "Mini", Origins: []string{"https://shop.example"}, ReturnURLs: []string{"https://SHOP.example:443/tg?x=1"}, Features: project.DefaultFeatures()}
	if err := svc.Create(ctx, p); err != nil {
		t.Fatal(err)
	}
	got, err := svc.Get(ctx, p.ID)
	if err != nil || strings.Join(got.ReturnURLs, " ") != "https://shop.example/tg?x=1" {
		t.Fatalf("stored return URLs %v, %v", got.ReturnURLs, err)
	}
	for _, bad := range []string{"https://evil.example/tg", "https://shop.example/tg#frag", "https://u@shop.example/", "javascript:alert(1)", "https://shop.example/a b", "/tg"} {
		q := &project.Project{Name: "x", Origins: p.Origins, ReturnURLs: []string{bad}}
		if err := svc.Create(ctx, q); apperr.Code(err) != apperr.Invalid {
			t.Errorf("return URL %q: %v", bad, err)
		}
	}
	// Listed: exactly one of them (its fragment kept, never compared), on
	// the page's origin.
	for _, tc := range []struct{ in, want string }{
		{"https://shop.example/tg?x=1", "https://shop.example/tg?x=1"},
		{"https://shop.example/tg?x=1#tgWebAppData=abc", "https://shop.example/tg?x=1#tgWebAppData=abc"},
		{"https://shop.example/tg?x=2", ""},
		{"https://shop.example/other", ""},
		{"https://shop.example/tg", ""},
	} {
		out, err := got.CheckReturnURL(tc.in, "https://shop.example")
		if tc.want == "" {
			if err == nil || !strings.Contains(err.Error(), "one of this project's return URLs") {
				t.Errorf("CheckReturnURL(%q) = %q, %v", tc.in, out, err)
			}
		} else if err != nil || out != tc.want {
			t.Errorf("CheckReturnURL(%q) = %q, %v; want %q", tc.in, out, err, tc.want)
		}
	}
	if _, err := got.CheckReturnURL("https://shop.example/tg?x=1", "https://other.example"); err == nil {
		t.Error("a listed URL accepted for a login started on another origin")
	}
	// None listed: a page of the page's origin, as the frame reports it.
	open := &project.Project{Origins: []string{"https://shop.example"}}
	if out, err := open.CheckReturnURL("https://shop.example/app/?tgWebAppStartParam=x", "https://shop.example"); err != nil || out != "https://shop.example/app/?tgWebAppStartParam=x" {
		t.Errorf("page URL: %q, %v", out, err)
	}
	for _, bad := range []string{"https://evil.example/app", "javascript:alert(1)", "https://user@shop.example/", "//shop.example/app", "https://shop.example/\"><script>"} {
		if _, err := open.CheckReturnURL(bad, "https://shop.example"); err == nil || !strings.Contains(err.Error(), "returnUrl must be a page of parentOrigin https://shop.example") {
			t.Errorf("CheckReturnURL(%q): %v", bad, err)
		}
	}
}
