package relay

import (
	"bytes"
	"errors"
	"io"
	"net"
	"testing"
	"time"
)

// tcpPair returns the two ends of a loopback TCP connection.
func tcpPair(t *testing.T) (server, client net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	if server == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { server.Close(); client.Close() })
	return server, client
}

func TestSockConn_ReadsPendingThenSocketAndHoldsNoBufferWhenDrained(t *testing.T) {
	server, client := tcpPair(t)
	nc, rw := newSocketIO(server, []byte("early:"), time.Now)
	sc, ok := nc.(*sockConn)
	if !ok {
		t.Fatalf("a TCP connection got %T, want *sockConn", nc)
	}
	big := bytes.Repeat([]byte("0123456789abcdef"), 1024) // 16 KiB: larger than a chunk
	// The pending bytes and "hello" are read before big is even sent, so
	// the socket is read again once drained.
	client.Write([]byte("hello"))
	head := make([]byte, len("early:hello"))
	if _, err := io.ReadFull(rw.Reader, head); err != nil {
		t.Fatal(err)
	}
	go func() {
		client.Write(big)
		client.Close()
	}()
	rest, err := io.ReadAll(rw.Reader)
	if err != nil {
		t.Fatal(err)
	}
	got := append(head, rest...)
	want := append([]byte("early:hello"), big...)
	if !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, want %d (first %q)", len(got), len(want), got[:min(len(got), 16)])
	}
	if sc.rchunk != nil || sc.unread != nil {
		t.Fatal("a drained socket still holds its read buffer")
	}
}

func TestSockConn_SmallReadsOfOneChunk(t *testing.T) {
	server, client := tcpPair(t)
	nc, _ := newSocketIO(server, nil, time.Now)
	sc := nc.(*sockConn)
	msg := []byte("a frame of some thirty-odd bytes")
	if _, err := client.Write(msg); err != nil {
		t.Fatal(err)
	}
	var got []byte
	p := make([]byte, 5)
	for len(got) < len(msg) {
		n, err := sc.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p[:n]...)
		if len(got) < len(msg) && sc.rchunk == nil {
			t.Fatal("the read buffer was returned while bytes were unread")
		}
	}
	if !bytes.Equal(got, msg) || sc.rchunk != nil {
		t.Fatalf("got %q (buffer held: %v)", got, sc.rchunk != nil)
	}
	client.Close()
	if _, err := sc.Read(p); !errors.Is(err, io.EOF) {
		t.Fatalf("read after the peer closed: %v, want EOF", err)
	}
}

func TestSockConn_HeldWritesGoOutTogetherAndInOrder(t *testing.T) {
	server, client := tcpPair(t)
	nc, rw := newSocketIO(server, nil, time.Now)
	sc := nc.(*sockConn)

	sc.hold()
	rw.Writer.WriteString("header")
	rw.Writer.Write(bytes.Repeat([]byte{'x'}, 10000)) // past the 16-byte bufio and one chunk
	rw.Writer.Flush()
	if sc.wbuf == nil {
		t.Fatal("writes under a hold were not gathered")
	}
	client.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if n, _ := client.Read(make([]byte, 1)); n != 0 {
		t.Fatal("a held write reached the socket before release")
	}
	if err := sc.release(); err != nil {
		t.Fatal(err)
	}
	if sc.wbuf != nil {
		t.Fatal("release kept the gathered buffer")
	}
	// Not held: straight through.
	rw.Writer.WriteString("tail")
	rw.Writer.Flush()

	client.SetReadDeadline(time.Now().Add(5 * time.Second))
	want := "header" + string(bytes.Repeat([]byte{'x'}, 10000)) + "tail"
	got := make([]byte, len(want))
	if _, err := io.ReadFull(client, got); err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatal("bytes arrived out of order")
	}
}

func TestSockConn_WriteErrorSticks(t *testing.T) {
	server, _ := tcpPair(t)
	nc, _ := newSocketIO(server, nil, time.Now)
	sc := nc.(*sockConn)
	sc.Close()
	if _, err := sc.Write([]byte("x")); err == nil {
		t.Fatal("write on a closed socket succeeded")
	}
	sc.hold()
	if _, err := sc.Write([]byte("y")); err == nil {
		t.Fatal("a write after a failed one succeeded")
	}
	if err := sc.release(); err == nil {
		t.Fatal("release after a failed write reported success")
	}
}

func TestNewSocketIO_NotASocketKeepsBuffers(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	nc, rw := newSocketIO(a, []byte("pending"), time.Now)
	if nc != a {
		t.Fatalf("a pipe was wrapped: %T", nc)
	}
	got := make([]byte, 7)
	if _, err := io.ReadFull(rw.Reader, got); err != nil || string(got) != "pending" {
		t.Fatalf("pending bytes: %q %v", got, err)
	}
}

func TestSockConn_LastReleaseSendsAndLargeGathersFlushEarly(t *testing.T) {
	server, client := tcpPair(t)
	nc, _ := newSocketIO(server, nil, time.Now)
	sc := nc.(*sockConn)
	sc.hold() // the reader answering frames that arrived together
	sc.hold() // a delivery batch
	sc.Write([]byte("reply,"))
	sc.Write([]byte("delivery"))
	if err := sc.release(); err != nil {
		t.Fatal(err)
	}
	if sc.wbuf == nil {
		t.Fatal("a release with a hold still open sent the gathered writes")
	}
	if err := sc.release(); err != nil || sc.wbuf != nil {
		t.Fatalf("the last release did not send: %v", err)
	}
	got := make([]byte, len("reply,delivery"))
	client.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadFull(client, got); err != nil || string(got) != "reply,delivery" {
		t.Fatalf("%q %v", got, err)
	}

	sc.hold()
	big := bytes.Repeat([]byte{'y'}, maxGather)
	sc.Write(big)
	if sc.wbuf != nil {
		t.Fatalf("%d gathered bytes were kept while a hold is open", maxGather)
	}
	if _, err := io.ReadFull(client, make([]byte, maxGather)); err != nil {
		t.Fatal(err)
	}
	sc.release()
}

// A frame that arrived with others is answered under the reader's hold; the
// answers must leave as soon as the reader waits for the client, even when
// what was still buffered turned out to be a control frame or the start of a
// frame still in flight.
func TestSockConn_ReaderHoldEndsWhenTheReaderWaits(t *testing.T) {
	server, client := tcpPair(t)
	nc, _ := newSocketIO(server, nil, time.Now)
	sc := nc.(*sockConn)
	sc.holdReader()
	sc.Write([]byte("answer"))
	read := make(chan error, 1)
	go func() {
		_, err := sc.Read(make([]byte, 8)) // waits for the client
		read <- err
	}()
	got := make([]byte, len("answer"))
	client.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadFull(client, got); err != nil || string(got) != "answer" {
		t.Fatalf("the gathered answer did not leave while the reader waited: %q %v", got, err)
	}
	client.Write([]byte("next"))
	if err := <-read; err != nil {
		t.Fatal(err)
	}
	if sc.readerHeld.Load() {
		t.Fatal("the reader's hold is still open")
	}
}
