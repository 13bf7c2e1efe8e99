package explorer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/caip"
)

// Badge types of the registry (api-shapes §1.1).
const (
	BadgeNone      = "none"
	BadgeCertified = "certified"
)

// maxNameLen bounds a wallet name; names are shown in a 360px modal.
const maxNameLen = 128

// Wallet is one registry entry, the shape of data/wallets.json. Nullable links
// are pointers so that a null in the file stays null in responses.
type Wallet struct {
	ID            string     `json:"id"`
	Slug          string     `json:"slug"`
	Name          string     `json:"name"`
	Description   string     `json:"description,omitempty"`
	Homepage      *string    `json:"homepage"`
	ImageURL      string     `json:"image_url,omitempty"`
	RDNS          *string    `json:"rdns"`
	LinkMode      *string    `json:"link_mode,omitempty"`
	MobileLink    *string    `json:"mobile_link"`
	DesktopLink   *string    `json:"desktop_link"`
	WebappLink    *string    `json:"webapp_link"`
	AppStore      *string    `json:"app_store"`
	PlayStore     *string    `json:"play_store"`
	ChromeStore   *string    `json:"chrome_store"`
	Chains        []string   `json:"chains"`
	Injected      []Injected `json:"injected"`
	SupportsWC    bool       `json:"supports_wc"`
	SupportsWCPay bool       `json:"supports_wcpay,omitempty"`
	BadgeType     string     `json:"badge_type"`
	Order         *int       `json:"order"`
}

// Injected names how a wallet's browser provider identifies itself: a flag on
// the namespace's provider (isMetaMask) or a window path (window.$onekey.ethereum).
type Injected struct {
	Namespace  string `json:"namespace,omitempty"`
	InjectedID string `json:"injected_id,omitempty"`
}

// wcWallet is the response form of a wallet, WcWallet of api-shapes §1.1,
// in the field order the spec lists.
type wcWallet struct {
	ID            string     `json:"id"`
	Name          string     `json:"name"`
	BadgeType     string     `json:"badge_type"`
	Description   string     `json:"description,omitempty"`
	Chains        []string   `json:"chains"`
	Homepage      *string    `json:"homepage"`
	ImageID       string     `json:"image_id"`
	ImageURL      string     `json:"image_url,omitempty"`
	Order         *int       `json:"order"`
	LinkMode      *string    `json:"link_mode"`
	MobileLink    *string    `json:"mobile_link"`
	DesktopLink   *string    `json:"desktop_link"`
	WebappLink    *string    `json:"webapp_link"`
	AppStore      *string    `json:"app_store"`
	PlayStore     *string    `json:"play_store"`
	ChromeStore   *string    `json:"chrome_store"`
	RDNS          *string    `json:"rdns"`
	Injected      []Injected `json:"injected"`
	DisplayIndex  int        `json:"display_index"`
	SupportsWC    bool       `json:"supports_wc"`
	SupportsWCPay bool       `json:"supports_wcpay"`
}

// record is a validated entry with its raw JSON, as stored in the wallets table.
type record struct {
	w   *Wallet
	raw []byte // compacted entry JSON
}

// parseRegistry validates a wallets.json document. Every error names the entry
// (index and slug) so an operator can find it in the file.
func parseRegistry(raw []byte) ([]record, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, apperr.Fieldf(apperr.Invalid, "wallets", "wallets.json must be a JSON array of wallets: %v", err)
	}
	if len(items) == 0 {
		// An empty file would delete the whole registry; that is never intended.
		return nil, apperr.Fieldf(apperr.Invalid, "wallets", "wallets.json holds no wallets")
	}
	recs := make([]record, 0, len(items))
	byID := make(map[string]int, len(items))
	bySlug := make(map[string]int, len(items))
	for i, item := range items {
		w, err := parseWallet(item)
		if err != nil {
			return nil, entryError(i, w, err.Error())
		}
		if j, dup := byID[w.ID]; dup {
			return nil, entryError(i, w, fmt.Sprintf("duplicate id %s (also entry %d)", w.ID, j))
		}
		if j, dup := bySlug[w.Slug]; dup {
			return nil, entryError(i, w, fmt.Sprintf("duplicate slug %q (also entry %d)", w.Slug, j))
		}
		byID[w.ID], bySlug[w.Slug] = i, i
		var buf bytes.Buffer
		if err := json.Compact(&buf, item); err != nil {
			return nil, entryError(i, w, err.Error())
		}
		recs = append(recs, record{w: w, raw: buf.Bytes()})
	}
	return recs, nil
}

func entryError(i int, w *Wallet, msg string) error {
	field := fmt.Sprintf("wallets[%d]", i)
	if w != nil && w.Slug != "" {
		return apperr.Fieldf(apperr.Invalid, field, "wallet entry %d (%q): %s", i, w.Slug, msg)
	}
	return apperr.Fieldf(apperr.Invalid, field, "wallet entry %d: %s", i, msg)
}

// parseWallet decodes and validates one entry. Unknown fields are refused so
// a misspelt field in wallets.json fails loudly instead of being dropped.
// It returns the partly decoded wallet with an error, for the error message.
func parseWallet(raw []byte) (*Wallet, error) {
	w := new(Wallet)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(w); err != nil {
		// Decode the slug alone so the message can still name the entry.
		var named struct {
			Slug string `json:"slug"`
		}
		json.Unmarshal(raw, &named)
		return &Wallet{Slug: named.Slug}, fmt.Errorf("not a valid wallet: %v", err)
	}
	if !isHex64(w.ID) {
		return w, fmt.Errorf("id must be 64 lowercase hex characters, not %q", truncate(w.ID, 80))
	}
	if !isSlug(w.Slug) {
		return w, fmt.Errorf("slug must be lowercase kebab-case, not %q", truncate(w.Slug, 80))
	}
	if name := strings.TrimSpace(w.Name); name == "" || name != w.Name || len(name) > maxNameLen {
		return w, fmt.Errorf("name must be 1 to %d characters without surrounding spaces", maxNameLen)
	}
	switch w.BadgeType {
	case "":
		w.BadgeType = BadgeNone
	case BadgeNone, BadgeCertified:
	default:
		return w, fmt.Errorf("badge_type must be %q or %q, not %q", BadgeNone, BadgeCertified, truncate(w.BadgeType, 40))
	}
	for _, c := range w.Chains {
		if _, err := caip.ParseChainID(c); err != nil {
			return w, fmt.Errorf("chains: %v", err)
		}
	}
	if w.Chains == nil {
		w.Chains = []string{}
	}
	return w, nil
}

func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// isSlug reports whether s is lowercase kebab-case ("trust-wallet"), the form
// data/SOURCES.md derives ids from.
func isSlug(s string) bool {
	if s == "" || len(s) > 128 || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// truncate bounds user input echoed in a message, cutting at a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
