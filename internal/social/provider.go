package social

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"golang.org/x/oauth2"

	"github.com/latchkit/latch/internal/auth"
)

// Provider names (spec §5: "Social provider must be google, github, apple,
// facebook, x or discord"). Farcaster is a social of the widget's list but
// not an OAuth provider.
const (
	Google   = "google"
	GitHub   = "github"
	Apple    = "apple"
	Facebook = "facebook"
	X        = "x"
	Discord  = "discord"
)

// Definition is what latchd knows of one provider: either an OpenID Connect
// issuer (discovery, then the ID token is verified and read) or OAuth 2.0
// endpoints and a user-info mapping. One definition per file.
type Definition struct {
	Name string
	// Title is the provider's name as shown on pages.
	Title string
	// Issuer, for OpenID Connect providers.
	Issuer string
	// Endpoints of an OAuth 2.0 provider (Issuer == "").
	Endpoints Endpoints
	Scopes    []string
	// AuthParams are extra parameters of the authorization request.
	AuthParams map[string]string
	// Profile reads the person from an OAuth 2.0 provider's user-info
	// endpoints with client, which sends the access token.
	Profile func(ctx context.Context, client *http.Client, ep Endpoints) (auth.SocialIdentity, error)
}

// OIDC reports whether the provider is an OpenID Connect issuer.
func (d *Definition) OIDC() bool { return d.Issuer != "" }

// Endpoints are an OAuth 2.0 provider's URLs.
type Endpoints struct {
	AuthURL, TokenURL string
	// UserURL answers the access token's person; EmailsURL, when the
	// provider has one, the person's addresses with their verification.
	UserURL, EmailsURL string
	// AuthStyle is how the client authenticates at TokenURL (0: detected).
	AuthStyle oauth2.AuthStyle
}

// Credentials are a project's client at a provider, from latchd's
// configuration. The URL fields replace the definition's (a GitHub
// Enterprise server, a test provider, latchd dev's identity provider).
type Credentials struct {
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
	Issuer       string `json:"issuer,omitempty"`
	AuthURL      string `json:"authUrl,omitempty"`
	TokenURL     string `json:"tokenUrl,omitempty"`
	UserURL      string `json:"userUrl,omitempty"`
	EmailsURL    string `json:"emailsUrl,omitempty"`
}

// Definitions are the providers latchd knows, in the spec's default order
// (§9, less farcaster).
var Definitions = []*Definition{googleDefinition, xDefinition, discordDefinition, appleDefinition, githubDefinition, facebookDefinition}

// Lookup returns the definition of name.
func Lookup(name string) (*Definition, bool) {
	for _, d := range Definitions {
		if d.Name == name {
			return d, true
		}
	}
	return nil, false
}

// Names are the provider names in the spec's default order.
func Names() []string {
	out := make([]string, len(Definitions))
	for i, d := range Definitions {
		out[i] = d.Name
	}
	return out
}

// resolved is a definition with a project's credentials applied.
type resolved struct {
	def    *Definition
	creds  Credentials
	issuer string
	ep     Endpoints
}

func resolve(d *Definition, c Credentials) resolved {
	r := resolved{def: d, creds: c, issuer: or(c.Issuer, d.Issuer), ep: d.Endpoints}
	r.ep.AuthURL, r.ep.TokenURL = or(c.AuthURL, r.ep.AuthURL), or(c.TokenURL, r.ep.TokenURL)
	r.ep.UserURL, r.ep.EmailsURL = or(c.UserURL, r.ep.UserURL), or(c.EmailsURL, r.ep.EmailsURL)
	return r
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// maxProfileBytes bounds a user-info answer.
const maxProfileBytes = 1 << 20

// getJSON GETs url with client (which adds the access token) into v.
func getJSON(ctx context.Context, client *http.Client, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxProfileBytes))
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered HTTP %d: %s", hostOf(url), res.StatusCode, strings.TrimSpace(string(truncate(body, 200))))
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%s answered something that is not the expected JSON: %w", hostOf(url), err)
	}
	return nil
}

func hostOf(u string) string {
	s := strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	if i := strings.IndexByte(s, '/'); i >= 0 {
		s = s[:i]
	}
	return s
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

// flexBool reads a JSON boolean that some providers (Apple) send as the
// string "true" or "false".
type flexBool bool

func (b *flexBool) UnmarshalJSON(data []byte) error {
	switch strings.Trim(string(data), `"`) {
	case "true":
		*b = true
	case "false", "null", "":
		*b = false
	default:
		return fmt.Errorf("not a boolean: %s", data)
	}
	return nil
}

// flexID reads an account id sent as a JSON number (GitHub) or string.
type flexID string

func (id *flexID) UnmarshalJSON(data []byte) error {
	var n json.Number
	if err := json.Unmarshal(data, &n); err == nil {
		*id = flexID(n.String())
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("not an id: %s", data)
	}
	*id = flexID(s)
	return nil
}
