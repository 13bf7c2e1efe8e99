//go:build linux

package sockio_test

import (
	"net"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/sockio"
)

// pipe is a connected TCP pair: the client end, and a duplicate descriptor
// of the server end (the server net.Conn closed).
func pipe(t *testing.T) (net.Conn, int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	server, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	fd, err := sockio.Dup(server.(*net.TCPConn))
	if err != nil {
		t.Fatal(err)
	}
	server.Close() // the socket stays open on fd
	t.Cleanup(func() { syscall.Close(fd) })
	return client, fd
}

func TestDupReadWrite(t *testing.T) {
	client, fd := pipe(t)
	buf := make([]byte, 64)
	if _, err := sockio.Read(fd, buf); err != syscall.EAGAIN {
		t.Fatalf("read with nothing sent: %v, want EAGAIN (non-blocking)", err)
	}
	client.Write([]byte("ping"))
	waitReadable(t, fd)
	if n, err := sockio.Read(fd, buf); err != nil || string(buf[:n]) != "ping" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	if n, err := sockio.Write(fd, []byte("pong")); n != 4 || err != nil {
		t.Fatalf("write: %d, %v", n, err)
	}
	client.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := client.Read(buf); err != nil || string(buf[:n]) != "pong" {
		t.Fatalf("client read %q, %v", buf[:n], err)
	}
}

func TestPoller_ReportsReadySocketsUntilStopped(t *testing.T) {
	client, fd := pipe(t)
	p, err := sockio.NewPoller()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Add(fd, sockio.In); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 8)
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.Run(func(events []syscall.EpollEvent) {
			for _, ev := range events {
				buf := make([]byte, 64)
				if n, err := sockio.Read(int(ev.Fd), buf); err == nil {
					got <- string(buf[:n])
				}
			}
		})
	}()
	// Run parks while nothing is ready and wakes for each new write.
	for _, msg := range []string{"one", "two"} {
		waitParked(t, "sockio.(*Poller).Run")
		client.Write([]byte(msg))
		select {
		case s := <-got:
			if s != msg {
				t.Fatalf("read %q, want %q", s, msg)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%q not reported", msg)
		}
	}
	p.Remove(fd)
	p.Stop()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after Stop")
	}
}

// waitReadable waits until fd has bytes to read (epoll_wait with a timeout).
func waitReadable(t *testing.T, fd int) {
	t.Helper()
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(epfd)
	if err := syscall.EpollCtl(epfd, syscall.EPOLL_CTL_ADD, fd, &syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(fd)}); err != nil {
		t.Fatal(err)
	}
	events := make([]syscall.EpollEvent, 1)
	for {
		n, err := syscall.EpollWait(epfd, events, 5000)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			t.Fatal(err)
		case n == 0:
			t.Fatal("nothing to read within 5 s")
		}
		return
	}
}

// waitParked waits until a goroutine running fn is parked in the runtime's
// netpoller (state "IO wait" in a goroutine dump).
func waitParked(t *testing.T, fn string) {
	t.Helper()
	buf := make([]byte, 1<<20)
	deadline := time.Now().Add(5 * time.Second)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		dump := string(buf[:runtime.Stack(buf, true)])
		for _, g := range strings.Split(dump, "\n\n") {
			if strings.Contains(g, "[IO wait") && strings.Contains(g, fn) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no goroutine in %s parked within 5 s", fn)
		}
		<-tick.C
	}
}

// Edge-triggered (ET), a socket is reported once per arrival of bytes, not
// again while they are still unread; Modify re-arms it.
func TestPoller_EdgeTriggered(t *testing.T) {
	client, fd := pipe(t)
	p, err := sockio.NewPoller()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Add(fd, sockio.In|sockio.ET); err != nil {
		t.Fatal(err)
	}
	reported := make(chan struct{}, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.Run(func(events []syscall.EpollEvent) {
			for range events {
				reported <- struct{}{} // nothing read: the bytes stay in the socket
			}
		})
	}()
	wait := func(what string) {
		t.Helper()
		select {
		case <-reported:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: not reported", what)
		}
	}
	none := func(what string) {
		t.Helper()
		waitParked(t, "sockio.(*Poller).Run") // epoll found nothing more to report
		select {
		case <-reported:
			t.Fatalf("%s: reported again", what)
		default:
		}
	}
	client.Write([]byte("one"))
	wait("first bytes")
	none("unread bytes") // level-triggered, they would be reported on every wait
	client.Write([]byte("two"))
	wait("new bytes")
	none("unread bytes")
	if err := p.Modify(fd, sockio.In|sockio.ET); err != nil {
		t.Fatal(err)
	}
	wait("re-armed with bytes unread")
	p.Remove(fd)
	p.Stop()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after Stop")
	}
}
