package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// SMTPConfig configures an SMTP sender.
type SMTPConfig struct {
	// URL is --smtp-url: smtp://[user:pass@]host[:port] sends with STARTTLS,
	// which the server must offer (port 587 by default); smtps://… uses
	// implicit TLS from the first byte (port 465 by default).
	URL string
	// From is the sender address (--mail-from), e.g. "Latch <login@example.com>".
	From string
	// TLSConfig, when set, replaces the default TLS settings (tests trust
	// their own certificate with it).
	TLSConfig *tls.Config
	// Attempts is how many times a message is tried (≤ 0: 3).
	Attempts int
	// Backoff is the wait before each retry; the last entry repeats
	// (nil: 250 ms, then 1 s).
	Backoff []time.Duration
	// Timeout bounds one attempt (0: 10 s).
	Timeout time.Duration
}

// SMTP sends messages through an SMTP server with go-mail.
type SMTP struct {
	cfg      SMTPConfig
	host     string
	port     int
	implicit bool
	user     string
	pass     string
}

// ParseSMTPURL checks an --smtp-url and returns its host, port and whether
// it uses implicit TLS. Messages never show its password.
func ParseSMTPURL(raw string) (host string, port int, implicitTLS bool, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", 0, false, fmt.Errorf("--smtp-url is not a URL")
	}
	switch u.Scheme {
	case "smtp":
		port = 587
	case "smtps":
		port, implicitTLS = 465, true
	default:
		return "", 0, false, fmt.Errorf("--smtp-url %s: the scheme must be smtp (STARTTLS) or smtps (implicit TLS)", u.Redacted())
	}
	host = u.Hostname()
	if host == "" {
		return "", 0, false, fmt.Errorf("--smtp-url %s: no host", u.Redacted())
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
			return "", 0, false, fmt.Errorf("--smtp-url %s: bad port", u.Redacted())
		}
	}
	if u.Path != "" && u.Path != "/" || u.RawQuery != "" {
		return "", 0, false, fmt.Errorf("--smtp-url %s: takes no path or query", u.Redacted())
	}
	return host, port, implicitTLS, nil
}

// NewSMTP returns an SMTP sender for cfg.
func NewSMTP(cfg SMTPConfig) (*SMTP, error) {
	host, port, implicit, err := ParseSMTPURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	if cfg.From == "" {
		return nil, errors.New("--mail-from is required with --smtp-url")
	}
	if err := gomail.NewMsg().From(cfg.From); err != nil {
		return nil, fmt.Errorf("--mail-from %q: %w", cfg.From, err)
	}
	u, _ := url.Parse(cfg.URL)
	s := &SMTP{cfg: cfg, host: host, port: port, implicit: implicit}
	if u.User != nil {
		s.user = u.User.Username()
		s.pass, _ = u.User.Password()
	}
	if s.cfg.Attempts <= 0 {
		s.cfg.Attempts = 3
	}
	if s.cfg.Backoff == nil {
		s.cfg.Backoff = []time.Duration{250 * time.Millisecond, time.Second}
	}
	if s.cfg.Timeout <= 0 {
		s.cfg.Timeout = 10 * time.Second
	}
	return s, nil
}

// Send delivers msg, trying up to Attempts times with Backoff between tries;
// a permanent refusal by the server (5xx) is not retried. It returns the last
// error when no attempt succeeded.
func (s *SMTP) Send(ctx context.Context, msg Message) error {
	m := gomail.NewMsg()
	if err := m.From(s.cfg.From); err != nil {
		return err
	}
	if err := m.To(msg.To); err != nil {
		return fmt.Errorf("mail: recipient: %w", err)
	}
	m.Subject(msg.Subject)
	m.SetBodyString(gomail.TypeTextPlain, msg.Text)
	if msg.HTML != "" {
		m.AddAlternativeString(gomail.TypeTextHTML, msg.HTML)
	}
	var err error
	for attempt := 0; attempt < s.cfg.Attempts; attempt++ {
		if attempt > 0 {
			wait := s.cfg.Backoff[min(attempt-1, len(s.cfg.Backoff)-1)]
			select {
			case <-ctx.Done():
				return errors.Join(err, ctx.Err())
			case <-time.After(wait):
			}
		}
		if err = s.sendOnce(ctx, m); err == nil {
			return nil
		}
		var se *gomail.SendError
		if errors.As(err, &se) && !se.IsTemp() && se.ErrorCode() >= 500 {
			return err
		}
	}
	return err
}

func (s *SMTP) sendOnce(ctx context.Context, m *gomail.Msg) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	opts := []gomail.Option{gomail.WithPort(s.port), gomail.WithTimeout(s.cfg.Timeout)}
	if s.implicit {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if s.cfg.TLSConfig != nil {
		opts = append(opts, gomail.WithTLSConfig(s.cfg.TLSConfig))
	}
	if s.user != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthPlain), gomail.WithUsername(s.user), gomail.WithPassword(s.pass))
	}
	c, err := gomail.NewClient(s.host, opts...)
	if err != nil {
		return err
	}
	return c.DialAndSendWithContext(ctx, m)
}
