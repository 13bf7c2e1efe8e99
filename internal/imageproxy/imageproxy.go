// Package imageproxy fetches remote images (ENS avatars and the like) for
// the widget, so that a visitor's browser contacts only latchd: the avatar's
// host sees latchd, never the visitor.
//
// A fetch is bounded in size, type and time, goes to public addresses only
// (the dialer refuses loopback, private, link-local and unique-local
// addresses after DNS resolution, so neither a name nor a redirect can reach
// the operator's network), and its result is kept in a bounded in-memory
// LRU cache keyed by URL.
package imageproxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/httpx"
)

// Defaults of the limits a Config leaves unset.
const (
	DefaultMaxBytes   = 2 << 20
	DefaultTimeout    = 5 * time.Second
	DefaultCacheBytes = 64 << 20
	DefaultCacheTTL   = time.Hour
	// maxURLBytes bounds the url parameter (ENS text records are cut at 2 KiB).
	maxURLBytes = 2048
	// maxRedirects followed per fetch; each target is checked by the dialer.
	maxRedirects = 3
)

// ContentSecurityPolicy is sent with every image: an SVG opened as a page
// runs no script and loads nothing.
const ContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

// allowedTypes are the image types served, as their canonical media type.
var allowedTypes = map[string]bool{
	"image/png":     true,
	"image/jpeg":    true,
	"image/gif":     true,
	"image/webp":    true,
	"image/svg+xml": true,
}

// Config configures a Proxy. Zero values get defaults.
type Config struct {
	MaxBytes   int64         // largest image fetched (default DefaultMaxBytes)
	Timeout    time.Duration // whole fetch, redirects and body included (default DefaultTimeout)
	CacheBytes int64         // total bytes of cached images (default DefaultCacheBytes)
	CacheTTL   time.Duration // how long a fetched image is served from the cache (default DefaultCacheTTL)
	// IPFSGateway, when set, is the https URL ipfs://<cid>/<path> is fetched
	// from as <IPFSGateway>/<cid>/<path> (e.g. https://ipfs.io/ipfs); empty
	// refuses ipfs:// URLs.
	IPFSGateway string
	Logger      *slog.Logger
	Now         func() time.Time

	// allowLoopback lets tests fetch from httptest servers on 127.0.0.1;
	// private and link-local addresses stay refused.
	allowLoopback bool
	// allowHTTP lets tests use plain-http httptest servers.
	allowHTTP bool
}

// Proxy serves GET /v1/image?url=….
type Proxy struct {
	cfg    Config
	client *http.Client
	cache  *lru
}

// ValidateGateway checks an IPFS gateway URL: https, with a host, without
// a query or fragment.
func ValidateGateway(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("%q is not an https URL such as https://ipfs.io/ipfs", s)
	}
	return nil
}

// New returns a Proxy.
func New(cfg Config) *Proxy {
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.CacheBytes <= 0 {
		cfg.CacheBytes = DefaultCacheBytes
	}
	if cfg.CacheTTL <= 0 {
		cfg.CacheTTL = DefaultCacheTTL
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.IPFSGateway = strings.TrimRight(cfg.IPFSGateway, "/")
	dialer := &net.Dialer{Timeout: cfg.Timeout, Control: publicOnly(cfg.allowLoopback)}
	transport := &http.Transport{
		// No environment proxy: the dialer must see the image host's address.
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           32,
		IdleConnTimeout:        90 * time.Second,
		TLSHandshakeTimeout:    cfg.Timeout,
		ResponseHeaderTimeout:  cfg.Timeout,
		MaxResponseHeaderBytes: 64 << 10,
	}
	p := &Proxy{cfg: cfg, cache: newLRU(cfg.CacheBytes)}
	p.client = &http.Client{
		Transport: transport,
		Timeout:   cfg.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return errors.New("too many redirects")
			}
			return p.checkScheme(req.URL)
		},
	}
	return p
}

// errRefusedAddress is the dialer's refusal of a non-public address.
var errRefusedAddress = errors.New("refused: not a public address")

// publicOnly is the dialer's Control: it runs after DNS resolution, on the
// address actually dialled, so a name resolving to (or a redirect towards)
// a private address is refused.
func publicOnly(allowLoopback bool) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return errRefusedAddress
		}
		if !Public(ap.Addr()) && !(allowLoopback && ap.Addr().Unmap().IsLoopback()) {
			return fmt.Errorf("%w: %s", errRefusedAddress, ap.Addr())
		}
		return nil
	}
}

// nonPublic are special-purpose ranges netip has no predicate for.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),      // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),  // carrier-grade NAT (RFC 6598)
	netip.MustParsePrefix("192.0.0.0/24"),   // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),  // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),    // reserved, broadcast
	netip.MustParsePrefix("64:ff9b::/96"),   // NAT64: may reach private IPv4
	netip.MustParsePrefix("64:ff9b:1::/48"), // local-use NAT64
}

// Public reports whether a is an address the proxy may fetch from: not
// loopback, private (RFC 1918, unique-local fc00::/7), link-local,
// unspecified, multicast or another special-purpose range.
func Public(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

func (p *Proxy) checkScheme(u *url.URL) error {
	if u.Scheme == "https" || p.cfg.allowHTTP && u.Scheme == "http" {
		return nil
	}
	return fmt.Errorf("scheme %q refused", u.Scheme)
}

// Proxiable reports whether the proxy would fetch src (https, or ipfs://
// with a gateway configured). data: URLs are not proxied: they need no host.
func (p *Proxy) Proxiable(src string) bool {
	_, err := p.target(src)
	return err == nil
}

// target is the URL fetched for src.
func (p *Proxy) target(src string) (*url.URL, error) {
	if src == "" || len(src) > maxURLBytes {
		return nil, apperr.Fieldf(apperr.Invalid, "url", "url is required: an https URL of at most %d bytes", maxURLBytes)
	}
	u, err := url.Parse(src)
	if err != nil || u.Host == "" && u.Scheme != "ipfs" {
		return nil, apperr.Fieldf(apperr.Invalid, "url", "url must be an absolute https URL")
	}
	if u.Scheme == "ipfs" {
		if p.cfg.IPFSGateway == "" {
			return nil, apperr.Fieldf(apperr.Unsupported, "url", "ipfs:// images are not served: no IPFS gateway is configured")
		}
		// ipfs://<cid>/<path>: the cid is the URL's host.
		path := strings.TrimPrefix(u.Host+u.Path, "ipfs/")
		if path == "" {
			return nil, apperr.Fieldf(apperr.Invalid, "url", "url must name an IPFS content id")
		}
		return url.Parse(p.cfg.IPFSGateway + "/" + path)
	}
	if u.User != nil || p.checkScheme(u) != nil {
		return nil, apperr.Fieldf(apperr.Invalid, "url", "url must be an absolute https URL")
	}
	return u, nil
}

// ServeHTTP serves GET /v1/image?url=<image URL>: the image, from the cache
// or fetched. It runs behind the project guard.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	src, err := httpx.Query(r, "url", maxURLBytes)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	target, err := p.target(src)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	key := target.String()
	img, ok := p.cache.get(key, p.cfg.Now())
	if !ok {
		if img, err = p.fetch(r.Context(), target); err != nil {
			httpx.Error(w, r, err)
			return
		}
		img.expires = p.cfg.Now().Add(p.cfg.CacheTTL)
		p.cache.add(key, img)
	}
	h := w.Header()
	h.Set("Content-Type", img.contentType)
	h.Set("Content-Length", strconv.Itoa(len(img.body)))
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	// An <img> ignores it; opened as a page, the image is downloaded.
	h.Set("Content-Disposition", "attachment")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	h.Set("Cache-Control", "public, max-age="+strconv.Itoa(int(p.cfg.CacheTTL/time.Second)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(img.body)
	}
}

// Errors of a fetch, as the client sees them.
var (
	errUnreachable = apperr.Fieldf(apperr.Unavailable, "url", "The image could not be fetched")
	errRefused     = apperr.Fieldf(apperr.Forbidden, "url", "The image's host is not a public address")
)

// fetch gets one image within the limits.
func (p *Proxy) fetch(ctx context.Context, u *url.URL) (*image, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, apperr.Fieldf(apperr.Invalid, "url", "url must be an absolute https URL")
	}
	req.Header.Set("Accept", "image/png, image/jpeg, image/gif, image/webp, image/svg+xml")
	req.Header.Set("User-Agent", "latchd-image-proxy")
	resp, err := p.client.Do(req)
	if err != nil {
		if errors.Is(err, errRefusedAddress) {
			return nil, errRefused
		}
		p.cfg.Logger.InfoContext(ctx, "image fetch failed", "host", u.Host, "err", err)
		return nil, errUnreachable
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		p.cfg.Logger.InfoContext(ctx, "image fetch failed", "host", u.Host, "status", resp.StatusCode)
		return nil, errUnreachable
	}
	mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || !allowedTypes[strings.ToLower(mt)] {
		return nil, apperr.Fieldf(apperr.Unsupported, "url", "Not an image latchd serves (png, jpeg, gif, webp or svg)")
	}
	tooLarge := apperr.Fieldf(apperr.TooLarge, "url", "The image is larger than %d bytes", p.cfg.MaxBytes)
	if resp.ContentLength > p.cfg.MaxBytes {
		return nil, tooLarge
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, p.cfg.MaxBytes+1))
	if err != nil {
		p.cfg.Logger.InfoContext(ctx, "image fetch failed", "host", u.Host, "err", err)
		return nil, errUnreachable
	}
	if int64(len(body)) > p.cfg.MaxBytes {
		return nil, tooLarge
	}
	return &image{contentType: strings.ToLower(mt), body: body}, nil
}
