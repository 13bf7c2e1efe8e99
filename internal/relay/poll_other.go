//go:build !linux

package relay

import "github.com/coder/websocket"

// poller: other systems serve every relay socket with a goroutine
// (libSocket); see poll_linux.go.
// pollSupported: no poll loops here.
const pollSupported = false

type poller struct{}

func newPoller() (*poller, error) { return nil, nil }

func (*poller) stop() {}

func (s *Server) servePolled(*conn, *websocket.Conn, *sockConn) bool { return false }
