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

func handleFrameHealth(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("ok\n"))
}

// handleFramePage serves the frame origin's page.
func handleFramePage(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	w.Write([]byte(framePage))
}
