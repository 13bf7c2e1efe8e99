package app

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/mail"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
)

// AuthConfig configures e-mail login for the embedded wallet (internal/auth).
type AuthConfig struct {
	Secret        string // --auth-secret: HMAC key of the login codes, ≥ 32 bytes
	KEK           string // --auth-kek: id:base64key[,…], encrypts the auth shares; first = current
	RecoveryKey   string // --auth-recovery-key: id:base64key[,…], encrypts operator-mode recovery shares
	SMTPURL       string // --smtp-url: smtp:// (STARTTLS) or smtps:// (implicit TLS)
	MailFrom      string // --mail-from
	MailTemplates string // --mail-templates: directory overriding the built-in templates
}

// authFlags binds the e-mail login flags and returns their check.
func authFlags(fs *flag.FlagSet, cfg *Config) func() error {
	a := &cfg.Auth
	fs.StringVar(&a.Secret, "auth-secret", "", "secret (at least 32 bytes, e.g. openssl rand -hex 32) keying the HMAC of e-mail login codes; required by latchd serve, latchd dev makes one in --data-dir (prefer LATCH_AUTH_SECRET)")
	fs.StringVar(&a.KEK, "auth-kek", "", "key-encryption keys of the embedded wallet's auth shares, id:base64key[,id:base64key…] (32-byte keys, e.g. k1:$(openssl rand -base64 32)); the first encrypts, the others still decrypt until `latchd auth rotate-key`; required by latchd serve (prefer LATCH_AUTH_KEK)")
	fs.StringVar(&a.RecoveryKey, "auth-recovery-key", "", "operator's recovery keys, same form as --auth-kek, encrypting the recovery shares of operator-assisted recovery; required by latchd serve (prefer LATCH_AUTH_RECOVERY_KEY)")
	fs.StringVar(&a.SMTPURL, "smtp-url", "", "SMTP server for login mails: smtp://user:pass@host:587 (STARTTLS required) or smtps://user:pass@host:465 (implicit TLS); empty: latchd serve answers e-mail logins with 503, latchd dev keeps mails in /dev/outbox")
	fs.StringVar(&a.MailFrom, "mail-from", "", "sender of login mails, e.g. \"Latch <login@example.com>\" (required with --smtp-url)")
	fs.StringVar(&a.MailTemplates, "mail-templates", "", "directory of mail templates overriding the built-in ones: code, device and email-change, each .txt.tmpl (with {{define \"subject\"}}) and .html.tmpl")
	return func() error {
		if n := len(a.Secret); n > 0 && n < auth.MinSecretLen {
			return fmt.Errorf("--auth-secret is %d bytes; it must be at least %d (e.g. openssl rand -hex 32)", n, auth.MinSecretLen)
		}
		if a.KEK != "" {
			if _, err := auth.ParseKeyring("--auth-kek", a.KEK); err != nil {
				return err
			}
		}
		if a.RecoveryKey != "" {
			if _, err := auth.ParseKeyring("--auth-recovery-key", a.RecoveryKey); err != nil {
				return err
			}
		}
		if a.SMTPURL != "" {
			if _, err := mail.NewSMTP(mail.SMTPConfig{URL: a.SMTPURL, From: a.MailFrom}); err != nil {
				return err
			}
		}
		if a.MailTemplates != "" {
			if _, err := mail.LoadTemplates(a.MailTemplates); err != nil {
				return fmt.Errorf("--mail-templates: %w", err)
			}
		}
		return nil
	}
}

// requireAuthKeys is latchd serve's check: it refuses to start without the
// keys of e-mail login (latchd dev makes its own).
func requireAuthKeys(a AuthConfig) error {
	var missing []string
	for name, v := range map[string]string{"--auth-secret": a.Secret, "--auth-kek": a.KEK, "--auth-recovery-key": a.RecoveryKey} {
		if v == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	return fmt.Errorf("latchd serve needs %s for e-mail login (see docs/auth.md; e.g. LATCH_AUTH_SECRET=$(openssl rand -hex 32), LATCH_AUTH_KEK=k1:$(openssl rand -base64 32), LATCH_AUTH_RECOVERY_KEY=r1:$(openssl rand -base64 32))", strings.Join(missing, ", "))
}

// authService is e-mail login's state in Main.
type authService struct {
	svc    *auth.Service
	http   *auth.Handler
	outbox *mail.Outbox // latchd dev
	// off, when set, is why e-mail login is off (latchd serve without keys
	// or SMTP): every /auth/v1 route answers it with 503.
	off error
	// mailTLS, when set, replaces the SMTP client's TLS settings (tests).
	mailTLS *tls.Config
}

// SetMailTLSConfig makes the SMTP client use c (tests trust their own
// server's certificate with it). Call before Run.
func (m *Main) SetMailTLSConfig(c *tls.Config) { m.auth.mailTLS = c }

// Outbox is latchd dev's mail outbox; nil in latchd serve.
func (m *Main) Outbox() *mail.Outbox { return m.auth.outbox }

// AuthService is the e-mail login service; nil when e-mail login is off.
func (m *Main) AuthService() *auth.Service { return m.auth.svc }

// devAuthKeys are the keys latchd dev makes once and keeps in --data-dir.
type devAuthKeys struct {
	Secret      string `json:"secret"`
	KEK         string `json:"kek"`
	RecoveryKey string `json:"recoveryKey"`
}

const devAuthKeysFile = "auth-keys.json"

// loadDevAuthKeys reads the dev keys from dataDir, making and saving them
// on the first start (in memory only when dataDir is "").
func loadDevAuthKeys(dataDir string) (devAuthKeys, error) {
	var k devAuthKeys
	path := filepath.Join(dataDir, devAuthKeysFile)
	if dataDir != "" {
		b, err := os.ReadFile(path)
		if err == nil {
			if err := json.Unmarshal(b, &k); err != nil {
				return k, fmt.Errorf("%s: %w", path, err)
			}
			return k, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return k, err
		}
	}
	k = devAuthKeys{Secret: newHexSecret(), KEK: auth.NewKeyString("dev1"), RecoveryKey: auth.NewKeyString("devrecovery1")}
	if dataDir == "" {
		return k, nil
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return k, err
	}
	b, _ := json.MarshalIndent(k, "", "  ")
	return k, os.WriteFile(path, b, 0o600)
}

// startAuth builds e-mail login. latchd dev fills missing keys from
// --data-dir and keeps mail in the outbox; latchd serve without keys or
// --smtp-url runs with e-mail login off (the CLI refuses to start without
// keys, so this is for embedders of Main).
func (m *Main) startAuth(ctx context.Context) error {
	a := m.Config.Auth
	if m.Config.Dev {
		if a.Secret == "" || a.KEK == "" || a.RecoveryKey == "" {
			dk, err := loadDevAuthKeys(m.Config.DataDir)
			if err != nil {
				return fmt.Errorf("dev auth keys: %w", err)
			}
			a.Secret, a.KEK, a.RecoveryKey = or(a.Secret, dk.Secret), or(a.KEK, dk.KEK), or(a.RecoveryKey, dk.RecoveryKey)
		}
	}
	switch {
	case a.Secret == "" || a.KEK == "" || a.RecoveryKey == "":
		m.auth.off = errors.New("E-mail login is not configured on this server: latchd needs --auth-secret, --auth-kek and --auth-recovery-key")
	case !m.Config.Dev && a.SMTPURL == "":
		m.auth.off = errors.New("E-mail login is not configured on this server: latchd has no --smtp-url")
	}
	if m.auth.off != nil {
		m.Logger.Warn("e-mail login off", "reason", m.auth.off.Error())
		return nil
	}
	kek, err := auth.ParseKeyring("--auth-kek", a.KEK)
	if err != nil {
		return err
	}
	rec, err := auth.ParseKeyring("--auth-recovery-key", a.RecoveryKey)
	if err != nil {
		return err
	}
	tpl, err := mail.LoadTemplates(a.MailTemplates)
	if err != nil {
		return fmt.Errorf("--mail-templates: %w", err)
	}
	var sender mail.Sender
	if m.Config.Dev {
		m.auth.outbox = mail.NewOutbox(0)
		sender = m.auth.outbox
	} else {
		if sender, err = mail.NewSMTP(mail.SMTPConfig{URL: a.SMTPURL, From: a.MailFrom, TLSConfig: m.auth.mailTLS}); err != nil {
			return err
		}
	}
	m.auth.svc, err = auth.New(auth.Config{
		DB: m.DB, Projects: m.Projects, Secret: []byte(a.Secret), Keys: kek, RecoveryKeys: rec, Mail: sender, Templates: tpl,
		LinkBase:           m.FrameURL,
		EmailLimiter:       m.newLimiter("auth-email", auth.EmailLimit, auth.EmailWindow),
		IPStartLimiter:     m.newLimiter("auth-ip-start", auth.IPStartLimit, auth.IPWindow),
		IPVerifyLimiter:    m.newLimiter("auth-ip-verify", auth.IPVerifyLimit, auth.IPWindow),
		ProjectLimiter:     m.newLimiter("auth-project", auth.ProjectLimit, auth.ProjectWindow),
		IPEmailLimiter:     m.newLimiter("auth-ip-email", auth.IPEmailLimit, auth.EmailWindow),
		DeviceStartLimiter: m.newLimiter("auth-device-start", auth.DeviceStartLimit, auth.DeviceWindow),
		FactorUserLimiter:  m.newLimiter("auth-factor-user", auth.FactorUserLimit, auth.FactorUserWindow),
		FactorIPLimiter:    m.newLimiter("auth-factor-ip", auth.FactorIPLimit, auth.IPWindow),
		ExportLimiter:      m.newLimiter("auth-export", auth.ExportLimit, auth.ExportWindow),
		Logger:             m.Logger.With("component", "auth"),
	})
	if err != nil {
		return err
	}
	m.auth.http = auth.NewHandler(m.auth.svc, m.clientIP, m.Config.Dev)
	return nil
}

func newHexSecret() string {
	b := make([]byte, 32)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// runAuthPrune deletes ended codes, sessions and refresh tokens every
// auth.PruneInterval until ctx ends (a no-op when e-mail login is off).
func (m *Main) runAuthPrune(ctx context.Context) {
	if m.auth.svc == nil {
		return
	}
	t := time.NewTicker(auth.PruneInterval)
	defer t.Stop()
	m.auth.svc.RunPrune(ctx, t.C)
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// authRoute serves an /auth/v1 route, or 503 when e-mail login is off.
func authRoute(f func(*auth.Handler, http.ResponseWriter, *http.Request)) func(*Main) http.Handler {
	return func(m *Main) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if m.auth.http == nil {
				httpx.Error(w, r, apperr.Errorf(apperr.Unavailable, "%s", m.auth.off))
				return
			}
			f(m.auth.http, w, r)
		})
	}
}

// frameOrigin is the frame's own origin (scheme://host[:port]).
func (m *Main) frameOrigin() string {
	u, err := url.Parse(m.FrameURL())
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// frameOriginAllowed: the frame origin, or in latchd dev any local origin.
func (m *Main) frameOriginAllowed(origin string) bool {
	if strings.EqualFold(origin, m.frameOrigin()) {
		return true
	}
	if !m.Config.Dev {
		return false
	}
	u, err := url.Parse(origin)
	return err == nil && u.Scheme == "http" && u.Path == "" && isLocalHost(u.Host)
}

func frameOriginError(origin string) error {
	if len(origin) > 100 {
		origin = origin[:100] + "…"
	}
	return apperr.Fieldf(apperr.Forbidden, "Origin", "Origin not allowed: %s is not the embedded-wallet frame's origin; only the frame calls /auth/v1", strings.ToValidUTF8(origin, "?"))
}

func setFrameCORS(w http.ResponseWriter, origin string) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Add("Vary", "Origin")
	h.Set("Access-Control-Expose-Headers", "Retry-After, X-Request-Id")
}

// requireFrameOrigin is the guard class frame-origin: a known projectId and,
// from a browser, the frame's own origin. The dapp page's origins are not
// admitted: only the frame holds login tokens and receives key shares.
func (m *Main) requireFrameOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		allowed := origin == "" || m.frameOriginAllowed(origin)
		if allowed && origin != "" {
			setFrameCORS(w, origin)
		}
		p, err := m.Projects.Lookup(r.Context(), r.URL.Query().Get("projectId"))
		if err != nil {
			httpx.Error(w, r, err)
			return
		}
		if !allowed {
			httpx.Error(w, r, frameOriginError(origin))
			return
		}
		next.ServeHTTP(w, r.WithContext(project.NewContext(r.Context(), p)))
	})
}

// authPreflight answers CORS preflights of /auth/v1 for the frame origin
// (the project guard's preflight admits the project's origins instead).
func (m *Main) authPreflight(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if r.Method != http.MethodOptions || origin == "" || r.Header.Get("Access-Control-Request-Method") == "" || !strings.HasPrefix(r.URL.Path, "/auth/v1/") || isSIWXPath(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", "Origin")
		if !m.frameOriginAllowed(origin) {
			httpx.Error(w, r, frameOriginError(origin))
			return
		}
		for _, h := range strings.Split(r.Header.Get("Access-Control-Request-Headers"), ",") {
			if h = strings.ToLower(strings.TrimSpace(h)); h != "" && h != "content-type" && h != "authorization" {
				httpx.Error(w, r, apperr.Fieldf(apperr.Forbidden, "Access-Control-Request-Headers", "Header %q is not allowed", h))
				return
			}
		}
		setFrameCORS(w, origin)
		w.Header().Set("Access-Control-Allow-Methods", "GET, POST, PUT, OPTIONS")
		if h := r.Header.Get("Access-Control-Request-Headers"); h != "" {
			w.Header().Set("Access-Control-Allow-Headers", h)
		}
		w.Header().Set("Access-Control-Max-Age", "600")
		w.WriteHeader(http.StatusNoContent)
	})
}

// linkGuard is the guard class link: the device approval page, opened from
// a mail, so it has no projectId, no session and often no Origin. Its guard
// is the one-use token it carries (256 bits, 10 minutes), checked by the
// handler; this wrapper only keeps the page out of caches and frames.
func linkGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Frame-Options", "DENY")
		next.ServeHTTP(w, r)
	})
}

// approveRoute serves the approval page, or says e-mail login is off.
func approveRoute(post bool) func(*Main) http.Handler {
	return func(m *Main) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case m.auth.http == nil:
				http.Error(w, "E-mail login is not configured on this server.", http.StatusServiceUnavailable)
			case post:
				m.auth.http.Approve(w, r)
			default:
				m.auth.http.ApprovePage(w, r)
			}
		})
	}
}

var outboxPage = template.Must(template.New("outbox").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>latchd dev outbox</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#111}article{border:1px solid #ccc;border-radius:6px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap}</style></head>
<body><h1>Outbox</h1><p>Mails latchd dev would have sent, newest first.</p>
{{range .}}<article><strong>{{.Subject}}</strong><br>to {{.To}} · {{.SentAt.Format "15:04:05"}} · {{.Kind}}
{{if .Code}}<p>Code: <code>{{.Code}}</code></p>{{end}}{{if .Link}}<p><a href="{{.Link}}">{{.Link}}</a></p>{{end}}<pre>{{.Text}}</pre></article>
{{else}}<p>No mail yet.</p>{{end}}
</body></html>
`))

// handleDevOutbox serves GET /dev/outbox: the mails latchd dev kept, as
// JSON, or as a page for a browser (Accept: text/html).
func (m *Main) handleDevOutbox(w http.ResponseWriter, r *http.Request) {
	if m.auth.outbox == nil {
		httpx.Error(w, r, apperr.Errorf(apperr.Unavailable, "%s", m.auth.off))
		return
	}
	to, err := httpx.Query(r, "to", 254)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	msgs := m.auth.outbox.List(strings.ToLower(strings.TrimSpace(to)))
	w.Header().Set("Cache-Control", "no-store")
	if strings.Contains(r.Header.Get("Accept"), "text/html") {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
		outboxPage.Execute(w, msgs)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"messages": msgs})
}

// runAuth runs `latchd auth rotate-key`: every stored share is re-encrypted
// under the first key of --auth-kek and --auth-recovery-key (latchd dev's
// keys from --data-dir when the flags are not given).
func runAuth(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "rotate-key" {
		return fmt.Errorf("want: latchd auth rotate-key [--auth-kek …] [--auth-recovery-key …] [--database-url …|--data-dir …]")
	}
	var cfg Config
	fs, finish := flagSet("latchd auth rotate-key", &cfg, stderr)
	if err := parseFlags(fs, args[1:], os.Getenv); err != nil {
		return err
	}
	if err := finish(); err != nil {
		return err
	}
	a := cfg.Auth
	if a.KEK == "" || a.RecoveryKey == "" {
		if _, err := os.Stat(filepath.Join(cfg.DataDir, devAuthKeysFile)); cfg.DatabaseURL != "" || err != nil {
			return errors.New("--auth-kek and --auth-recovery-key are required: the new key first, then every key still in use")
		}
		dk, err := loadDevAuthKeys(cfg.DataDir)
		if err != nil {
			return err
		}
		a.KEK, a.RecoveryKey = or(a.KEK, dk.KEK), or(a.RecoveryKey, dk.RecoveryKey)
	}
	kek, err := auth.ParseKeyring("--auth-kek", a.KEK)
	if err != nil {
		return err
	}
	rec, err := auth.ParseKeyring("--auth-recovery-key", a.RecoveryKey)
	if err != nil {
		return err
	}
	db, err := store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer db.Close()
	n, err := auth.RotateKeys(ctx, db, kek, rec)
	if err != nil {
		return fmt.Errorf("re-encrypted %d records, then: %w", n, err)
	}
	fmt.Fprintf(stdout, "re-encrypted %d records under --auth-kek %s and --auth-recovery-key %s\n", n, kek.Current(), rec.Current())
	return nil
}
