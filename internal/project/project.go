// Package project owns projects: the id every API call carries, the origins
// allowed to call with it, its feature flags and its analytics flag.
package project

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/apperr"
)

// Project is one dapp registered with this latchd.
type Project struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Origins []string `json:"origins"`
	// ReturnURLs are the pages a social login in redirect mode may come
	// back to (CheckReturnURL); none: the page that starts it.
	ReturnURLs []string `json:"returnUrls"`
	Features   Features `json:"features"`
	Analytics  bool     `json:"analytics"`
	// Dev marks the project latchd dev creates; it also allows localhost origins.
	Dev       bool      `json:"dev"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Features are the per-project switches: the remote features of spec §3
// (email, socials, swaps, onramp, activity, branding) and the panels of spec §2.
// A provider list that is empty means the feature is off.
type Features struct {
	Email    bool     `json:"email"`
	Socials  []string `json:"socials"`
	Swaps    []string `json:"swaps"`
	Onramp   []string `json:"onramp"`
	Activity bool     `json:"activity"`
	Branding bool     `json:"branding"`
	Send     bool     `json:"send"`
	Receive  bool     `json:"receive"`
}

// DefaultFeatures are those of a new project: the panels that need no
// third-party service are on; e-mail, socials, swaps and on-ramp need the
// operator to configure their services, so they start off.
func DefaultFeatures() Features {
	return Features{Activity: true, Branding: true, Send: true, Receive: true, Socials: []string{}, Swaps: []string{}, Onramp: []string{}}
}

// SocialProviders are the accepted social login providers (spec §5).
var SocialProviders = []string{"google", "github", "apple", "facebook", "x", "discord", "farcaster"}

// SwapProviders and OnrampProviders are the provider names the config API may announce.
var (
	SwapProviders   = []string{"1inch"}
	OnrampProviders = []string{"meld", "coinbase"}
)

// FeatureKeys lists the keys SetFeature accepts, for help texts.
var FeatureKeys = []string{"email", "socials", "swaps", "onramp", "activity", "branding", "send", "receive"}

// SetFeature sets one feature from its text form, as given to
// `latchd project create --feature k=v`: booleans take true/false, provider
// lists take a comma-separated list, "true" (the default providers) or "false".
func (f *Features) SetFeature(key, value string) error {
	switch key {
	case "email":
		return setBool(&f.Email, key, value)
	case "activity":
		return setBool(&f.Activity, key, value)
	case "branding":
		return setBool(&f.Branding, key, value)
	case "send":
		return setBool(&f.Send, key, value)
	case "receive":
		return setBool(&f.Receive, key, value)
	case "socials":
		return setList(&f.Socials, key, value, SocialProviders, []string{"google", "x", "farcaster", "discord", "apple", "github", "facebook"})
	case "swaps":
		return setList(&f.Swaps, key, value, SwapProviders, SwapProviders[:1])
	case "onramp":
		return setList(&f.Onramp, key, value, OnrampProviders, OnrampProviders[:1])
	}
	return apperr.Fieldf(apperr.Invalid, "feature", "Unknown feature %q; known: %s", key, strings.Join(FeatureKeys, ", "))
}

func setBool(dst *bool, key, value string) error {
	b, err := strconv.ParseBool(value)
	if err != nil {
		return apperr.Fieldf(apperr.Invalid, "feature", "Feature %s must be true or false, not %q", key, value)
	}
	*dst = b
	return nil
}

func setList(dst *[]string, key, value string, allowed, defaults []string) error {
	switch value {
	case "true":
		*dst = append([]string(nil), defaults...)
		return nil
	case "false", "":
		*dst = []string{}
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, v := range strings.Split(value, ",") {
		v = strings.TrimSpace(v)
		if !contains(allowed, v) {
			return apperr.Fieldf(apperr.Invalid, "feature", "Feature %s does not know %q; known: %s", key, v, strings.Join(allowed, ", "))
		}
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	*dst = out
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// NewID returns a random 32-hex project id.
func NewID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// ValidID reports whether id has the form of a project id: 32 lowercase hex characters.
func ValidID(id string) bool {
	if len(id) != 32 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// AllowsOrigin reports whether a browser Origin header value may call with this
// project. devLocal adds http://localhost:* and http://127.0.0.1:*.
func (p *Project) AllowsOrigin(origin string, devLocal bool) bool {
	if devLocal && isLocalOrigin(origin) {
		return true
	}
	o, err := ParseOrigin(origin)
	if err != nil {
		return false
	}
	for _, allowed := range p.Origins {
		if allowed == o || matchWildcard(allowed, o) {
			return true
		}
	}
	return false
}

func isLocalOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" || u.Path != "" {
		return false
	}
	h := u.Hostname()
	return h == "localhost" || h == "127.0.0.1"
}

// Validate checks a project before it is stored.
func (p *Project) Validate() error {
	p.Name = strings.TrimSpace(p.Name)
	if p.Name == "" {
		return apperr.Fieldf(apperr.Invalid, "name", "A project name is required")
	}
	if len(p.Name) > 100 {
		return apperr.Fieldf(apperr.Invalid, "name", "A project name is at most 100 characters")
	}
	if !ValidID(p.ID) {
		return apperr.Fieldf(apperr.Invalid, "projectId", "A project id is 32 hexadecimal characters")
	}
	seen := map[string]bool{}
	origins := make([]string, 0, len(p.Origins))
	for _, o := range p.Origins {
		n, err := NormalizeOrigin(o)
		if err != nil {
			return err
		}
		if !seen[n] {
			seen[n] = true
			origins = append(origins, n)
		}
	}
	sort.Strings(origins)
	p.Origins = origins
	returns := make([]string, 0, len(p.ReturnURLs))
	for _, u := range p.ReturnURLs {
		n, err := p.normalizeReturnURL(u)
		if err != nil {
			return err
		}
		if !seen[n] {
			seen[n] = true
			returns = append(returns, n)
		}
	}
	p.ReturnURLs = returns
	return nil
}

type ctxKey struct{}

// NewContext returns ctx carrying p.
func NewContext(ctx context.Context, p *Project) context.Context {
	return context.WithValue(ctx, ctxKey{}, p)
}

// FromContext returns the project the request was authorised for. Handlers
// behind Service.Require always have one.
func FromContext(ctx context.Context) *Project {
	p, _ := ctx.Value(ctxKey{}).(*Project)
	return p
}
