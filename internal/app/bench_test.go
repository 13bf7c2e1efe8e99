package app

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/latchkit/latch/internal/project"
)

// BenchmarkAPI_GetWallets measures a search through the whole middleware
// chain (request id, metrics, log, rate limit, CORS, project guard).
func BenchmarkAPI_GetWallets(b *testing.B) {
	cfg := Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: b.TempDir(), IPRateLimit: 1 << 30}
	m := NewMain(cfg, slog.New(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err := m.Run(context.Background()); err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	p := &project.Project{Name: "bench", Origins: []string{"https://app.example"}, Features: project.DefaultFeatures()}
	if err := m.Projects.Create(context.Background(), p); err != nil {
		b.Fatal(err)
	}
	id := p.ID
	h := m.api.Handler
	target := "/getWallets?projectId=" + id + "&entries=100&search=wa"
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			w := httptest.NewRecorder()
			r := httptest.NewRequest("GET", target, nil)
			r.Header.Set("Origin", "https://app.example")
			h.ServeHTTP(w, r)
			if w.Code != 200 {
				b.Fatalf("status %d: %s", w.Code, w.Body)
			}
		}
	})
}
