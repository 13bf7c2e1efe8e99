package app

import (
	"net/http"

	"github.com/latchkit/latch/internal/frameapp"
)

func handleFrameHealth(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("ok\n"))
}

// frameApp is the embedded-wallet frame's handler (internal/frameapp): its
// page under the project's CSP and its scripts. The frame calls the API
// listener, whose URL it is given. Built when the frame listener is mounted,
// once the API listener has its address.
func (m *Main) frameApp() *frameapp.Handler {
	h, err := frameapp.New(frameapp.Config{Projects: m.Projects, APIURL: m.APIURL(), DevOrigins: m.Config.Dev})
	if err != nil {
		// Only a broken build gets here (the API URL is the listener's own).
		m.Logger.Error("frame: cannot serve the frame build", "err", err)
		return nil
	}
	return h
}

// frameRoute adapts one of the frame handler's methods to the route table.
func frameRoute(serve func(*frameapp.Handler, http.ResponseWriter, *http.Request)) func(*Main) http.Handler {
	return func(m *Main) http.Handler {
		h := m.frameApp()
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if h == nil {
				http.Error(w, "frame build is broken: see latchd's log", http.StatusInternalServerError)
				return
			}
			serve(h, w, r)
		})
	}
}
