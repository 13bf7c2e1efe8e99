package project_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

func TestService_Create(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := project.NewService(db)
		t.Run("OK", func(t *testing.T) {
			p := &project.Project{Name: " Demo ", Origins: []string{"https://b.example", "HTTPS://A.example/", "https://b.example"}, Features: project.DefaultFeatures(), Analytics: true}
			if err := svc.Create(ctx, p); err != nil {
				t.Fatal(err)
			}
			if !project.ValidID(p.ID) {
				t.Fatalf("id %q", p.ID)
			}
			got, err := svc.Get(ctx, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != "Demo" || strings.Join(got.Origins, " ") != "https://a.example https://b.example" || !got.Analytics || !got.Features.Activity {
				t.Fatalf("got %+v", got)
			}
		})
		t.Run("ErrNameRequired", func(t *testing.T) {
			err := svc.Create(ctx, &project.Project{Name: " "})
			if apperr.Code(err) != apperr.Invalid {
				t.Fatalf("err = %v", err)
			}
		})
		t.Run("ErrBadOrigin", func(t *testing.T) {
			for _, o := range []string{"example.com", "ftp://x.example", "https://x.example/path", "https://a.*.example", "https://u@x.example"} {
				err := svc.Create(ctx, &project.Project{Name: "x", Origins: []string{o}})
				if apperr.Code(err) != apperr.Invalid {
					t.Fatalf("origin %q: err = %v", o, err)
				}
			}
			list, _ := svc.List(ctx)
			if len(list) != 1 {
				t.Fatalf("a refused project was stored: %d projects", len(list))
			}
		})
		t.Run("ErrConflict", func(t *testing.T) {
			id := project.NewID()
			if err := svc.Create(ctx, &project.Project{ID: id, Name: "a"}); err != nil {
				t.Fatal(err)
			}
			if err := svc.Create(ctx, &project.Project{ID: id, Name: "b"}); apperr.Code(err) != apperr.Conflict {
				t.Fatalf("err = %v", err)
			}
		})
	})
}

func TestService_UpdateAndLookup(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := project.NewService(db)
		p := &project.Project{Name: "a", Features: project.DefaultFeatures()}
		if err := svc.Create(ctx, p); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Lookup(ctx, p.ID); err != nil {
			t.Fatal(err)
		}
		p.Origins = []string{"https://app.example"}
		if err := p.Features.SetFeature("swaps", "true"); err != nil {
			t.Fatal(err)
		}
		if err := svc.Update(ctx, p); err != nil {
			t.Fatal(err)
		}
		got, err := svc.Lookup(ctx, p.ID) // Update invalidates the cache
		if err != nil || len(got.Origins) != 1 || len(got.Features.Swaps) != 1 {
			t.Fatalf("got %+v, %v", got, err)
		}
		if err := svc.Update(ctx, &project.Project{ID: project.NewID(), Name: "x"}); apperr.Code(err) != apperr.NotFound {
			t.Fatalf("update unknown: %v", err)
		}
		for id, code := range map[string]string{"": apperr.Unauthorized, "abc": apperr.Unauthorized, strings.Repeat("G", 32): apperr.Unauthorized, project.NewID(): apperr.Forbidden} {
			if _, err := svc.Lookup(ctx, id); apperr.Code(err) != code {
				t.Fatalf("Lookup(%q) = %v, want %s", id, err, code)
			}
		}
	})
}

func TestFeatures_SetFeature(t *testing.T) {
	f := project.DefaultFeatures()
	for _, kv := range [][2]string{{"email", "true"}, {"socials", "google,github,google"}, {"onramp", "meld"}, {"activity", "false"}} {
		if err := f.SetFeature(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if !f.Email || strings.Join(f.Socials, ",") != "google,github" || f.Onramp[0] != "meld" || f.Activity {
		t.Fatalf("%+v", f)
	}
	for _, kv := range [][2]string{{"nope", "true"}, {"email", "yes please"}, {"socials", "myspace"}, {"swaps", "uniswap"}} {
		if err := f.SetFeature(kv[0], kv[1]); apperr.Code(err) != apperr.Invalid {
			t.Fatalf("SetFeature(%q, %q) = %v", kv[0], kv[1], err)
		}
	}
	rf := f.RemoteFeatures()
	if rf[0].ID != "social_login" || strings.Join(rf[0].Config, ",") != "email,google,github" || !rf[0].IsEnabled {
		t.Fatalf("social_login = %+v", rf[0])
	}
	if rf[1].ID != "swap" || rf[1].IsEnabled || rf[1].Config == nil {
		t.Fatalf("swap = %+v", rf[1])
	}
}

func TestProject_AllowsOrigin(t *testing.T) {
	p := &project.Project{Origins: []string{"https://app.example", "https://*.preview.example"}}
	for origin, want := range map[string]bool{
		"https://app.example":          true,
		"https://APP.example":          true,
		"http://app.example":           false,
		"https://evil.example":         false,
		"https://x.preview.example":    true,
		"https://preview.example":      false,
		"https://app.example.evil.com": false,
		"http://localhost:5173":        false,
		"null":                         false,
	} {
		if got := p.AllowsOrigin(origin, false); got != want {
			t.Errorf("AllowsOrigin(%q) = %v", origin, got)
		}
	}
	for _, o := range []string{"http://localhost:5173", "http://127.0.0.1:1"} {
		if !p.AllowsOrigin(o, true) {
			t.Errorf("dev: %q refused", o)
		}
	}
	if p.AllowsOrigin("http://localhost.evil.com", true) {
		t.Error("dev: localhost.evil.com allowed")
	}
}

func TestGuard(t *testing.T) {
	db := storetest.MustOpenSQLite(t)
	svc := project.NewService(db)
	p := &project.Project{Name: "a", Origins: []string{"https://app.example"}, Features: project.DefaultFeatures()}
	if err := svc.Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	g := &project.Guard{Projects: svc}
	mux := http.NewServeMux()
	mux.Handle("GET /appkit/v1/config", g.Require(http.HandlerFunc(project.HandleConfig)))
	mux.Handle("GET /appkit/v1/project-limits", g.Require(http.HandlerFunc(project.HandleLimits)))
	mux.Handle("GET /projects/v1/origins", g.Require(http.HandlerFunc(project.HandleOrigins)))
	mux.Handle("GET /getAnalyticsConfig", g.Require(http.HandlerFunc(project.HandleAnalyticsConfig)))
	h := g.Preflight(mux)

	do := func(method, target, origin string, hdr map[string]string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, target, nil)
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		for k, v := range hdr {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	t.Run("OK", func(t *testing.T) {
		w := do("GET", "/appkit/v1/config?projectId="+p.ID, "https://app.example", nil)
		if w.Code != 200 || w.Header().Get("Access-Control-Allow-Origin") != "https://app.example" {
			t.Fatalf("%d %v", w.Code, w.Header())
		}
		var body struct{ Features []project.FeatureConfig }
		json.Unmarshal(w.Body.Bytes(), &body)
		if len(body.Features) == 0 {
			t.Fatalf("body %s", w.Body)
		}
	})
	t.Run("NoOrigin", func(t *testing.T) {
		w := do("GET", "/projects/v1/origins?projectId="+p.ID, "", nil)
		if w.Code != 200 || !strings.Contains(w.Body.String(), `"allowedOrigins":["https://app.example"]`) {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	})
	for name, tc := range map[string]struct {
		target, origin string
		status         int
		text           string
	}{
		"Missing":   {"/getAnalyticsConfig", "", 401, "Project ID Not Configured"},
		"Malformed": {"/getAnalyticsConfig?projectId=xyz", "", 401, "Invalid project id"},
		"Unknown":   {"/getAnalyticsConfig?projectId=" + project.NewID(), "", 403, "Invalid project id"},
		"Origin":    {"/getAnalyticsConfig?projectId=" + p.ID, "https://evil.example", 403, "Origin not allowed"},
	} {
		t.Run("Err"+name, func(t *testing.T) {
			w := do("GET", tc.target, tc.origin, nil)
			if w.Code != tc.status || !strings.Contains(w.Body.String(), tc.text) || !strings.Contains(w.Body.String(), `"status":"FAILED"`) {
				t.Fatalf("%d %s", w.Code, w.Body)
			}
			if tc.origin != "" && w.Header().Get("Access-Control-Allow-Origin") != "" {
				t.Fatal("CORS granted to a refused origin")
			}
		})
	}
	t.Run("Preflight", func(t *testing.T) {
		w := do("OPTIONS", "/appkit/v1/config?projectId="+p.ID, "https://app.example", map[string]string{"Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "content-type"})
		if w.Code != 204 || w.Header().Get("Access-Control-Allow-Origin") != "https://app.example" || w.Header().Get("Access-Control-Allow-Headers") != "content-type" {
			t.Fatalf("%d %v", w.Code, w.Header())
		}
		w = do("OPTIONS", "/appkit/v1/config?projectId="+p.ID, "https://evil.example", map[string]string{"Access-Control-Request-Method": "GET"})
		if w.Code != 403 || w.Header().Get("Access-Control-Allow-Origin") != "" {
			t.Fatalf("evil preflight: %d %v", w.Code, w.Header())
		}
		w = do("OPTIONS", "/appkit/v1/config?projectId="+p.ID, "https://app.example", map[string]string{"Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-evil"})
		if w.Code != 403 {
			t.Fatalf("odd header preflight: %d", w.Code)
		}
	})
}
