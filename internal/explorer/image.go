package explorer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/latchkit/latch/data/icons"
	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/store"
)

// Image kinds, one per image route of api-shapes §1.2.
const (
	KindWallet   = "wallet"   // GET /getWalletImage/{id}: a wallet id
	KindAsset    = "asset"    // GET /public/getAssetImage/{id}: network and connector image ids
	KindCurrency = "currency" // GET /public/getCurrencyImage/{id}: a country or currency code
	KindToken    = "token"    // GET /public/getTokenImage/{id}: a token symbol
)

// MaxImageBytes bounds a stored image; logos are small, and every one may be
// fetched by each modal that opens.
const MaxImageBytes = 512 << 10

// maxImageIDLen bounds an image id in a URL.
const maxImageIDLen = 128

// imageTypes are the content types PutImage accepts.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/webp": true, "image/svg+xml": true}

// Names looks up the display name behind an image id, e.g. the network name
// for an asset image id, so that a monogram shows the right initials. ok is
// false when the id is unknown.
type Names func(kind, id string) (name string, ok bool)

// Image is an image ready to serve.
type Image struct {
	ContentType string
	Data        []byte
	ETag        string // strong validator, quoted: a hash of Data
	// Stored is true for an image from the images table, which is served as
	// immutable; an embedded icon or a generated monogram is false and is
	// cached for a day only, so that a logo stored later replaces it.
	Stored bool
	// Icon is true for one of the icons embedded from data/icons.
	Icon bool
}

// ValidKind reports whether kind is one of the image kinds.
func ValidKind(kind string) bool {
	switch kind {
	case KindWallet, KindAsset, KindCurrency, KindToken:
		return true
	}
	return false
}

// ValidImageID reports whether id is 1 to 128 characters of [A-Za-z0-9._:-].
// The colon admits CAIP-2 ids (eip155:1), which name network assets.
func ValidImageID(id string) bool {
	if id == "" || len(id) > maxImageIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' || c == ':') {
			return false
		}
	}
	return true
}

func checkImageKey(kind, id string) error {
	if !ValidKind(kind) {
		return apperr.Fieldf(apperr.Invalid, "kind", "kind must be wallet, asset, currency or token, not %q", truncate(kind, 32))
	}
	if !ValidImageID(id) {
		return apperr.Fieldf(apperr.Invalid, "id", "id must be 1 to %d characters of letters, digits, '.', '_', ':' and '-'", maxImageIDLen)
	}
	return nil
}

// PutImage stores (or replaces) the image served for kind and id. It accepts
// PNG, JPEG, WebP and SVG up to MaxImageBytes and checks that the bytes are
// what contentType says. SVG must be a plain image: scripts, event handlers,
// foreignObject and external references are refused, since a stored SVG is
// served from latchd's own origin. Errors: invalid (kind, id, data),
// unsupported (content_type), too_large (data).
func (s *Service) PutImage(ctx context.Context, kind, id, contentType string, data []byte) error {
	if err := checkImageKey(kind, id); err != nil {
		return err
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil || !imageTypes[mt] {
		return apperr.Fieldf(apperr.Unsupported, "content_type", "content type must be image/png, image/jpeg, image/webp or image/svg+xml, not %q", truncate(contentType, 64))
	}
	if len(data) == 0 {
		return apperr.Fieldf(apperr.Invalid, "data", "image is empty")
	}
	if len(data) > MaxImageBytes {
		return apperr.Fieldf(apperr.TooLarge, "data", "image is larger than %d bytes", MaxImageBytes)
	}
	if mt == "image/svg+xml" {
		if err := checkSVG(data); err != nil {
			return apperr.Fieldf(apperr.Invalid, "data", "not a plain SVG image: %v", err)
		}
	} else if got := http.DetectContentType(data); got != mt {
		return apperr.Fieldf(apperr.Invalid, "data", "content is %s, not %s", got, mt)
	}
	_, err = s.db.Exec(ctx, `INSERT INTO images (kind, id, content_type, data, updated_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (kind, id) DO UPDATE SET content_type = excluded.content_type, data = excluded.data, updated_at = excluded.updated_at`,
		kind, id, mt, data, s.db.Now().Unix())
	if err != nil {
		return fmt.Errorf("store image %s/%s: %w", kind, id, err)
	}
	return nil
}

// checkSVG checks that data is well-formed XML whose root is an <svg> element
// and that it carries nothing active.
func checkSVG(data []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(data))
	root := true
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			if root {
				return errors.New("no <svg> element")
			}
			return nil
		}
		if err != nil {
			return err
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		name := strings.ToLower(el.Name.Local)
		if root && name != "svg" {
			return fmt.Errorf("root element is <%s>, not <svg>", truncate(el.Name.Local, 32))
		}
		root = false
		if name == "script" || name == "foreignobject" {
			return fmt.Errorf("<%s> is not allowed", el.Name.Local)
		}
		for _, a := range el.Attr {
			attr := strings.ToLower(a.Name.Local)
			if strings.HasPrefix(attr, "on") {
				return fmt.Errorf("event handler attribute %s is not allowed", a.Name.Local)
			}
			if attr == "href" && !strings.HasPrefix(a.Value, "#") && !strings.HasPrefix(a.Value, "data:image/") {
				return errors.New("external references are not allowed")
			}
		}
	}
}

// Image returns the image for kind and id: the stored one if there is one,
// else the embedded icon of the network (asset images by CAIP-2 id), token
// (by symbol) or wallet (by the registry wallet's slug), else a generated
// monogram. The monogram's initials come from the wallet's
// name (wallet images), names (asset images) or the id itself (token symbols,
// currency codes, and unknown ids). Errors: invalid for a bad kind or id.
func (s *Service) Image(ctx context.Context, kind, id string, names Names) (Image, error) {
	if err := checkImageKey(kind, id); err != nil {
		return Image{}, err
	}
	var ct string
	var data []byte
	err := s.db.QueryRow(ctx, `SELECT content_type, data FROM images WHERE kind = ? AND id = ?`, kind, id).Scan(&ct, &data)
	switch {
	case err == nil:
		return Image{ContentType: ct, Data: data, ETag: etag(data), Stored: true}, nil
	case !store.IsNoRows(err):
		return Image{}, fmt.Errorf("read image %s/%s: %w", kind, id, err)
	}
	if svg, ok := s.icon(kind, id); ok {
		return Image{ContentType: "image/svg+xml", Data: svg, ETag: etag(svg), Icon: true}, nil
	}
	var initials string
	switch kind {
	case KindWallet:
		if w, ok := s.Wallet(id); ok {
			initials = nameInitials(w.Name)
		}
	case KindAsset:
		if names != nil {
			if name, ok := names(kind, id); ok {
				initials = nameInitials(name)
			}
		}
	}
	if initials == "" {
		initials = codeInitials(id)
	}
	svg := Monogram(id, initials)
	return Image{ContentType: "image/svg+xml", Data: svg, ETag: etag(svg)}, nil
}

// icon returns the embedded icon for kind and id, if data/icons has one.
// Currency images (fiat codes) have none.
func (s *Service) icon(kind, id string) ([]byte, bool) {
	switch kind {
	case KindAsset:
		return icons.Network(id)
	case KindToken:
		return icons.Token(id)
	case KindWallet:
		if w, ok := s.Wallet(id); ok {
			return icons.Wallet(w.Slug)
		}
	}
	return nil, false
}

func etag(data []byte) string {
	sum := sha256.Sum256(data)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// Monogram returns an SVG image: text (escaped) in white on a rounded square
// whose colour is derived from key, so the same id always gets the same colour.
func Monogram(key, text string) []byte {
	var b bytes.Buffer
	b.Grow(512)
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">`+
		`<rect width="96" height="96" rx="24" ry="24" fill="%s"/>`+
		`<text x="48" y="48" dy="0.35em" text-anchor="middle" fill="#ffffff" font-size="%d" font-weight="600" `+
		`font-family="system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">`, monogramColor(key), fontSize(text))
	xml.EscapeText(&b, []byte(text))
	b.WriteString(`</text></svg>`)
	return b.Bytes()
}

func fontSize(text string) int {
	if utf8.RuneCountInString(text) > 1 {
		return 36
	}
	return 44
}

// monogramColor maps key to a colour: an FNV hash picks the hue, and fixed
// saturation and lightness keep white text readable on every hue.
func monogramColor(key string) string {
	h := fnv.New32a()
	h.Write([]byte(key))
	r, g, b := hslToRGB(float64(h.Sum32()%360), 0.55, 0.42)
	return fmt.Sprintf("#%02x%02x%02x", r, g, b)
}

func hslToRGB(h, s, l float64) (uint8, uint8, uint8) {
	c := (1 - abs(2*l-1)) * s
	hp := h / 60
	x := c * (1 - abs(mod2(hp)-1))
	var r, g, b float64
	switch {
	case hp < 1:
		r, g = c, x
	case hp < 2:
		r, g = x, c
	case hp < 3:
		g, b = c, x
	case hp < 4:
		g, b = x, c
	case hp < 5:
		r, b = x, c
	default:
		r, b = c, x
	}
	m := l - c/2
	return to8(r + m), to8(g + m), to8(b + m)
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

func mod2(f float64) float64 { return f - 2*float64(int(f/2)) }

func to8(f float64) uint8 { return uint8(f*255 + 0.5) }

// nameInitials returns up to two initials: the first letters of the first two
// words ("Trust Wallet" → "TW"), or of a camel-case word's parts
// ("MetaMask" → "MM"), or one letter ("Phantom" → "P").
func nameInitials(name string) string {
	words := strings.FieldsFunc(name, func(r rune) bool { return unicode.IsSpace(r) || r == '-' || r == '_' })
	if len(words) == 1 {
		words = splitCamel(words[0])
	}
	var out []rune
	for _, w := range words {
		for _, r := range w {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				out = append(out, unicode.ToUpper(r))
				break
			}
		}
		if len(out) == 2 {
			break
		}
	}
	if len(out) == 0 {
		return firstRune(name)
	}
	return string(out)
}

// splitCamel splits "MetaMask" into "Meta" and "Mask" at a lower-to-upper
// change; an all-caps word ("OKX") stays whole.
func splitCamel(w string) []string {
	var prev rune
	for i, r := range w {
		if i > 0 && unicode.IsLower(prev) && unicode.IsUpper(r) {
			return []string{w[:i], w[i:]}
		}
		prev = r
	}
	return []string{w}
}

// codeInitials returns the first two letters or digits of a code or symbol,
// upper-cased ("usdc" → "US", "EUR" → "EU").
func codeInitials(code string) string {
	var out []rune
	for _, r := range code {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			out = append(out, unicode.ToUpper(r))
			if len(out) == 2 {
				break
			}
		}
	}
	if len(out) == 0 {
		return firstRune(code)
	}
	return string(out)
}

// firstRune returns the first visible character of s, or "?".
func firstRune(s string) string {
	for _, r := range s {
		if !unicode.IsSpace(r) && unicode.IsPrint(r) {
			return string(r)
		}
	}
	return "?"
}
