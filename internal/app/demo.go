package app

import (
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/latchkit/latch/internal/httpx"
)

// demoHandler serves the built demo dapp (latchd dev --demo-dir) from its own
// origin, as a real dapp would be, plus /latch-dev.json: what the page needs
// to create its Latch (API URL, project id, dev networks).
func (m *Main) demoHandler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if r.URL.Path == "/latch-dev.json" {
			w.Header().Set("Cache-Control", "no-store")
			httpx.JSON(w, http.StatusOK, m.Info())
			return
		}
		// Unknown paths fall back to index.html so client-side routes load.
		p := filepath.Join(dir, filepath.FromSlash(path.Clean("/"+r.URL.Path)))
		if st, err := os.Stat(p); err != nil || (st.IsDir() && !exists(filepath.Join(p, "index.html"))) {
			r.URL.Path = "/"
		}
		if strings.HasPrefix(r.URL.Path, "/assets/") {
			// Vite names built assets by content hash, so they never change.
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "no-cache")
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
	})
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
