package app

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/devidp"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/social"
)

// SocialConfig configures social login (internal/social): each provider's
// client, for every project (the flags) or per project (the file).
type SocialConfig struct {
	// Clients are --social-<provider>-client-id / -client-secret, by provider.
	Clients map[string]*SocialClient
	// CredentialsFile is --social-credentials: a JSON file
	// {"<projectId>" | "*": {"<provider>": {clientId, clientSecret, …}}}.
	CredentialsFile string
	// Farcaster is Sign In With Farcaster's ID registry (farcaster.go).
	Farcaster FarcasterConfig
}

// SocialClient is one provider's client from the flags.
type SocialClient struct{ ID, Secret string }

// socialFlags binds the social login flags and returns their check.
func socialFlags(fs *flag.FlagSet, cfg *Config) func() error {
	s := &cfg.Social
	s.Clients = map[string]*SocialClient{}
	for _, name := range social.Names() {
		c := &SocialClient{}
		s.Clients[name] = c
		d, _ := social.Lookup(name)
		fs.StringVar(&c.ID, "social-"+name+"-client-id", "", fmt.Sprintf("%s login: the OAuth client id of every project (per project: --social-credentials); without one %s is not offered", d.Title, d.Title))
		fs.StringVar(&c.Secret, "social-"+name+"-client-secret", "", fmt.Sprintf("%s login: the OAuth client secret that goes with --social-%s-client-id (prefer %s)", d.Title, name, EnvName("social-"+name+"-client-secret")))
	}
	finishFarcaster := farcasterFlags(fs, cfg)
	fs.StringVar(&s.CredentialsFile, "social-credentials", "", `JSON file of social login clients per project: {"<projectId>" or "*": {"google": {"clientId": "…", "clientSecret": "…"}, …}}; a project's entry wins over "*", which wins over the --social-<provider>-client-id flags (docs/social.md)`)
	return func() error {
		for name, c := range s.Clients {
			if (c.ID == "") != (c.Secret == "") {
				return fmt.Errorf("--social-%s-client-id and --social-%s-client-secret go together", name, name)
			}
		}
		if s.CredentialsFile != "" {
			if _, err := loadSocialCredentials(s.CredentialsFile); err != nil {
				return err
			}
		}
		return finishFarcaster()
	}
}

// socialCredentials are clients by project id ("*": every project), then
// provider.
type socialCredentials map[string]map[string]social.Credentials

// loadSocialCredentials reads and checks --social-credentials.
func loadSocialCredentials(path string) (socialCredentials, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--social-credentials: %w", err)
	}
	var c socialCredentials
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("--social-credentials %s: %w", path, err)
	}
	for pid, providers := range c {
		for name, cr := range providers {
			if _, ok := social.Lookup(name); !ok {
				return nil, fmt.Errorf("--social-credentials %s: %q: unknown provider %q (%s)", path, pid, name, social.MsgUnknownProvider)
			}
			if cr.ClientID == "" || cr.ClientSecret == "" {
				return nil, fmt.Errorf("--social-credentials %s: %q.%s needs clientId and clientSecret", path, pid, name)
			}
		}
	}
	return c, nil
}

// socialService is social login's state in Main.
type socialService struct {
	svc  *social.Service
	http *social.Handler
	// idp is latchd dev's stand-in provider; nil in latchd serve.
	idp *devidp.Server
	off error
}

// SocialService is the social login service; nil when social login is off.
func (m *Main) SocialService() *social.Service { return m.social.svc }

// startSocial builds social login on e-mail login's accounts and sessions
// (it is off when they are). latchd dev stands its development identity
// provider in for each provider without credentials.
func (m *Main) startSocial(ctx context.Context) error {
	if m.auth.svc == nil {
		m.social.off = m.auth.off
		return nil
	}
	flags := map[string]social.Credentials{}
	for name, c := range m.Config.Social.Clients {
		if c != nil && c.ID != "" {
			flags[name] = social.Credentials{ClientID: c.ID, ClientSecret: c.Secret}
		}
	}
	var file socialCredentials
	if path := m.Config.Social.CredentialsFile; path != "" {
		var err error
		if file, err = loadSocialCredentials(path); err != nil {
			return err
		}
	}
	if m.Config.Dev {
		var err error
		// The provider's public address is the API's, as the popup and
		// latchd itself reach it.
		if m.social.idp, err = devidp.New(m.PublicAPIURL); err != nil {
			return err
		}
	}
	creds := func(projectID, provider string) (social.Credentials, bool) {
		if c, ok := file[projectID][provider]; ok {
			return c, true
		}
		if c, ok := file["*"][provider]; ok {
			return c, true
		}
		if c, ok := flags[provider]; ok {
			return c, true
		}
		if m.social.idp != nil {
			return m.social.idp.Credentials(provider)
		}
		return social.Credentials{}, false
	}
	farcaster, err := m.farcasterRegistry()
	if err != nil {
		return err
	}
	m.social.svc, err = social.New(social.Config{
		DB: m.DB, Auth: m.auth.svc, Credentials: creds, FrameURL: m.FrameURL, LocalOrigins: m.Config.Dev, SecureCookies: !m.Config.Dev,
		IPStartLimiter:        m.newLimiter("social-ip-start", social.IPStartLimit, social.IPWindow),
		IPConnectLimiter:      m.newLimiter("social-ip-connect", social.IPConnectLimit, social.IPWindow),
		Farcaster:             farcaster,
		IPChannelLimiter:      m.newLimiter("farcaster-ip-channel", social.IPChannelLimit, social.IPWindow),
		IPAuthenticateLimiter: m.newLimiter("farcaster-ip-authenticate", social.IPAuthenticateLimit, social.IPWindow),
		IPStatusLimiter:       m.newLimiter("farcaster-ip-status", social.IPStatusLimit, social.IPWindow),
		Logger:                m.Logger.With("component", "social"),
	})
	if err != nil {
		return err
	}
	m.social.http = social.NewHandler(m.social.svc, m.clientIP)
	return nil
}

// socialRoute serves a social route, or 503 when social login is off.
func socialRoute(f func(*social.Handler, http.ResponseWriter, *http.Request)) func(*Main) http.Handler {
	return func(m *Main) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if m.social.http == nil {
				httpx.Error(w, r, apperr.Errorf(apperr.Unavailable, "Social login is not configured on this server: %s", offReason(m.social.off)))
				return
			}
			f(m.social.http, w, r)
		})
	}
}

// socialPage serves a social page of the frame origin (the popup's), or a
// plain 503 page when social login is off.
func socialPage(f func(*social.Handler, http.ResponseWriter, *http.Request)) func(*Main) http.Handler {
	return func(m *Main) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if m.social.http == nil {
				w.Header().Set("Cache-Control", "no-store")
				http.Error(w, "Social login is not configured on this server.", http.StatusServiceUnavailable)
				return
			}
			f(m.social.http, w, r)
		})
	}
}

func offReason(err error) string {
	if err == nil {
		return "e-mail login is off"
	}
	return err.Error()
}

// devIDPRoute serves latchd dev's identity provider.
func devIDPRoute(m *Main) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if m.social.idp == nil {
			httpx.Error(w, r, apperr.Errorf(apperr.Unavailable, "The development identity provider is off: %s", offReason(m.social.off)))
			return
		}
		m.social.idp.Handler().ServeHTTP(w, r)
	})
}

// handleConfig serves GET /appkit/v1/config: the project's remote features,
// its socials narrowed to the providers that have credentials (a provider
// without them is left out, never shown broken). latchd dev's project
// offers every provider social login can serve.
func (m *Main) handleConfig(w http.ResponseWriter, r *http.Request) {
	p := project.FromContext(r.Context())
	f := p.Features
	f.Socials = m.socialsOffered(p)
	w.Header().Set("Cache-Control", "private, max-age=60")
	httpx.JSON(w, http.StatusOK, map[string]any{"features": f.RemoteFeatures()})
}

// socialsOffered are the project's socials that work: the OAuth providers
// with credentials, and farcaster when latchd has an ID registry, in the
// project's order (latchd dev's project: all of them, in the spec's order).
func (m *Main) socialsOffered(p *project.Project) []string {
	out := []string{}
	if m.social.svc == nil {
		return out
	}
	available := m.social.svc.Available(p)
	if m.social.svc.FarcasterAvailable(p) {
		available = append(available, social.Farcaster)
	}
	if p.Dev {
		return social.InSpecOrder(available)
	}
	for _, name := range p.Features.Socials {
		for _, a := range available {
			if a == name {
				out = append(out, name)
			}
		}
	}
	return out
}
