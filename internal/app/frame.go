package app

import (
	"net/http"
)

// framePage is what the frame origin serves until the embedded-wallet frame
// app lands: a minimal page that announces it is not ready, so a widget that
// loads it fails clearly instead of hanging.
const framePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Latch frame</title></head>
<body><p>The Latch embedded-wallet frame is not part of this build yet.</p></body></html>
`

// frameHandler serves the frame origin. Its pages may be framed by any site;
// the frame itself checks the embedding origin against the project (later).
func frameHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", "default-src 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		w.Write([]byte(framePage))
	})
	return mux
}
