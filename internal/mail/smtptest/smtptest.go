// Package smtptest runs a real SMTP server (github.com/emersion/go-smtp) in
// the test process, with STARTTLS or implicit TLS, AUTH PLAIN and a switch
// that makes it refuse messages, so mail tests go through a real exchange.
package smtptest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"log"
	"math/big"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Options shape the server.
type Options struct {
	// ImplicitTLS serves TLS from the first byte (smtps); otherwise the
	// server offers STARTTLS, unless NoTLS.
	ImplicitTLS bool
	NoTLS       bool
	// User and Password, when set, are required with AUTH PLAIN.
	User, Password string
	// Refuse, when set, is the error every DATA command gets (e.g. a
	// temporary 451 or a permanent 550).
	Refuse *smtp.SMTPError
}

// Received is one delivered message.
type Received struct {
	From, To string
	User     string // who authenticated, if anyone
	Data     []byte
}

// Server is a running SMTP server.
type Server struct {
	Addr string
	// RootCAs trusts the server's certificate.
	RootCAs *tls.Config

	mu       sync.Mutex
	received []Received
	attempts int
	refuse   *smtp.SMTPError
}

// Start starts a server on 127.0.0.1 and stops it when the test ends.
func Start(tb testing.TB, opts Options) *Server {
	tb.Helper()
	s := &Server{refuse: opts.Refuse}
	srv := smtp.NewServer(backend{s: s, opts: opts})
	srv.Domain = "localhost"
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	srv.ErrorLog = log.New(io.Discard, "", 0)
	var cert tls.Certificate
	cert, s.RootCAs = selfSigned(tb)
	var ln net.Listener
	var err error
	switch {
	case opts.ImplicitTLS:
		ln, err = tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	default:
		if !opts.NoTLS {
			srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
		}
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		tb.Fatal(err)
	}
	s.Addr = ln.Addr().String()
	go srv.Serve(ln)
	tb.Cleanup(func() { srv.Close() })
	return s
}

// Received returns the messages delivered so far.
func (s *Server) Received() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.received...)
}

// Attempts is how many DATA commands the server got, refused or not.
func (s *Server) Attempts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts
}

// SetRefuse changes the error DATA gets (nil: accept).
func (s *Server) SetRefuse(e *smtp.SMTPError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = e
}

type backend struct {
	s    *Server
	opts Options
}

func (b backend) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &session{b: b}, nil
}

type session struct {
	b        backend
	from, to string
	user     string
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != s.b.opts.User || password != s.b.opts.Password {
			return errors.New("invalid credentials")
		}
		s.user = username
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if s.b.opts.User != "" && s.user == "" {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error { s.to = to; return nil }

func (s *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	srv := s.b.s
	srv.mu.Lock()
	defer srv.mu.Unlock()
	srv.attempts++
	if srv.refuse != nil {
		return srv.refuse
	}
	srv.received = append(srv.received, Received{From: s.from, To: s.to, User: s.user, Data: data})
	return nil
}

func (s *session) Reset()        {}
func (s *session) Logout() error { return nil }

// selfSigned makes a certificate for 127.0.0.1 and a client config trusting it.
func selfSigned(tb testing.TB) (tls.Certificate, *tls.Config) {
	tb.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "smtptest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		tb.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}
}
