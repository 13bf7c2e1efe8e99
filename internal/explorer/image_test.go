package explorer

import (
	"bytes"
	"context"
	"encoding/xml"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"regexp"
	"strings"
	"testing"

	"github.com/latchkit/latch/data/icons"
	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

func pngBytes(tb testing.TB) []byte {
	tb.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(1, 1, color.RGBA{255, 0, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

func jpegBytes(tb testing.TB) []byte {
	tb.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 4, 4)), nil); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

const plainSVG = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><defs><linearGradient id="g"/></defs><use href="#g"/><rect width="1" height="1"/></svg>`

// svgDoc is what a monogram must parse into.
type svgDoc struct {
	XMLName xml.Name `xml:"http://www.w3.org/2000/svg svg"`
	Rect    struct {
		Fill string `xml:"fill,attr"`
		RX   string `xml:"rx,attr"`
	} `xml:"rect"`
	Text string `xml:"text"`
}

func parseSVG(tb testing.TB, b []byte) svgDoc {
	tb.Helper()
	var d svgDoc
	if err := xml.Unmarshal(b, &d); err != nil {
		tb.Fatalf("monogram is not valid SVG XML: %v\n%s", err, b)
	}
	return d
}

func TestMonogram(t *testing.T) {
	t.Run("Deterministic", func(t *testing.T) {
		a, b := Monogram("id-1", "AB"), Monogram("id-1", "AB")
		if !bytes.Equal(a, b) {
			t.Fatal("same input, different monograms")
		}
		hex := regexp.MustCompile(`^#[0-9a-f]{6}$`)
		colors := map[string]bool{}
		for _, id := range []string{"id-1", "id-2", "id-3", "eip155-1", "usdc"} {
			d := parseSVG(t, Monogram(id, "X"))
			if !hex.MatchString(d.Rect.Fill) || d.Rect.RX == "" {
				t.Errorf("%s: fill %q rx %q", id, d.Rect.Fill, d.Rect.RX)
			}
			colors[d.Rect.Fill] = true
		}
		if len(colors) < 4 {
			t.Errorf("5 ids gave only %d colours", len(colors))
		}
	})
	t.Run("Escaped", func(t *testing.T) {
		b := Monogram("x", `<&>"`)
		if !bytes.Contains(b, []byte("&lt;&amp;&gt;&#34;")) {
			t.Errorf("text not escaped: %s", b)
		}
		if d := parseSVG(t, b); d.Text != `<&>"` {
			t.Errorf("text = %q", d.Text)
		}
	})
	t.Run("ColourIsReadable", func(t *testing.T) {
		// Lightness 42% keeps every hue dark enough for white text.
		for hue := 0.0; hue < 360; hue += 15 {
			r, g, b := hslToRGB(hue, 0.55, 0.42)
			if int(r)+int(g)+int(b) > 3*200 {
				t.Errorf("hue %v too light: %d %d %d", hue, r, g, b)
			}
		}
	})
}

func TestInitials(t *testing.T) {
	tests := []struct{ in, name, code string }{
		{"MetaMask", "MM", "ME"},
		{"Trust Wallet", "TW", "TR"},
		{"Phantom", "P", "PH"},
		{"OKX Wallet", "OW", "OK"},
		{"OKX", "O", "OK"},
		{"imToken", "IT", "IM"},
		{"1inch Wallet", "1W", "1I"},
		{"D'CENT Wallet", "DW", "DC"},
		{"Bitcoin.com Wallet", "BW", "BI"},
		{"  ", "?", "?"},
		{"&&", "&", "&"},
		{"ethereum", "E", "ET"},
		{"über wallet", "ÜW", "ÜB"},
		{"usdc.e", "U", "US"},
	}
	for _, tt := range tests {
		if got := nameInitials(tt.in); got != tt.name {
			t.Errorf("nameInitials(%q) = %q, want %q", tt.in, got, tt.name)
		}
		if got := codeInitials(tt.in); got != tt.code {
			t.Errorf("codeInitials(%q) = %q, want %q", tt.in, got, tt.code)
		}
	}
}

func TestService_Image(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := New(db)
		if err := s.Load(ctx, mustJSON(t, fixture())); err != nil {
			t.Fatal(err)
		}
		names := func(kind, id string) (string, bool) {
			if kind == KindAsset && id == "eip155-1" {
				return "Ethereum", true
			}
			return "", false
		}
		text := func(img Image) string { return parseSVG(t, img.Data).Text }

		t.Run("WalletMonogram", func(t *testing.T) {
			// Wallet3 is in the registry but has no embedded icon.
			img, err := s.Image(ctx, KindWallet, idOf("wallet3"), names)
			if err != nil {
				t.Fatal(err)
			}
			if img.Stored || img.Icon || img.ContentType != "image/svg+xml" || text(img) != "W" || img.ETag == "" {
				t.Errorf("image = %+v", img)
			}
		})
		t.Run("MonogramLabels", func(t *testing.T) {
			for _, tt := range []struct{ kind, id, want string }{
				{KindAsset, "eip155-1", "E"},
				{KindAsset, "unknown-asset", "UN"},
				{KindAsset, "eip155:999999", "EI"},
				{KindToken, "xdai", "XD"},
				{KindToken, "unknowncoin", "UN"},
				{KindCurrency, "EUR", "EU"},
				{KindCurrency, "ETH", "ET"}, // currency images are fiat codes: no token icon
				{KindWallet, "0000", "00"},
				{KindWallet, "metamask", "ME"}, // a slug is not a wallet id
			} {
				img, err := s.Image(ctx, tt.kind, tt.id, names)
				if err != nil {
					t.Fatal(err)
				}
				if got := text(img); got != tt.want || img.Icon {
					t.Errorf("%s/%s: text %q, want %q (icon %v)", tt.kind, tt.id, got, tt.want, img.Icon)
				}
			}
			if img, err := s.Image(ctx, KindAsset, "eip155-1", nil); err != nil || text(img) != "EI" {
				t.Errorf("nil names: %q, %v", text(img), err)
			}
		})
		t.Run("Icons", func(t *testing.T) {
			want := func(get func(string) ([]byte, bool), id string) []byte {
				b, ok := get(id)
				if !ok {
					t.Fatalf("data/icons has no icon for %s", id)
				}
				return b
			}
			for _, tt := range []struct {
				kind, id string
				svg      []byte
			}{
				{KindAsset, "eip155:1", want(icons.Network, "eip155:1")},
				{KindAsset, "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", want(icons.Network, "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp")},
				{KindToken, "USDC", want(icons.Token, "USDC")},
				{KindToken, "usdc", want(icons.Token, "USDC")},
				{KindToken, "WETH", want(icons.Token, "ETH")},
				{KindWallet, idOf("metamask"), want(icons.Wallet, "metamask")},
				{KindWallet, idOf("ledger-live"), want(icons.Wallet, "ledger-live")},
			} {
				img, err := s.Image(ctx, tt.kind, tt.id, names)
				if err != nil {
					t.Fatal(err)
				}
				if !img.Icon || img.Stored || img.ContentType != "image/svg+xml" || !bytes.Equal(img.Data, tt.svg) || img.ETag != etag(tt.svg) {
					t.Errorf("%s/%s: icon %v stored %v, %.60q", tt.kind, tt.id, img.Icon, img.Stored, img.Data)
				}
				// What latchd accepts from an operator, it would accept here too.
				if err := checkSVG(img.Data); err != nil {
					t.Errorf("%s/%s: %v", tt.kind, tt.id, err)
				}
			}
			if eth, usdc := want(icons.Network, "eip155:1"), want(icons.Token, "USDC"); bytes.Equal(eth, usdc) {
				t.Error("network and token icons are the same file")
			}
		})
		t.Run("StoredBeatsIcon", func(t *testing.T) {
			logo := pngBytes(t)
			if err := s.PutImage(ctx, KindWallet, idOf("metamask"), "image/png", logo); err != nil {
				t.Fatal(err)
			}
			img, err := s.Image(ctx, KindWallet, idOf("metamask"), names)
			if err != nil {
				t.Fatal(err)
			}
			if !img.Stored || img.Icon || img.ContentType != "image/png" || !bytes.Equal(img.Data, logo) {
				t.Errorf("image = %+v", img)
			}
			// Other kinds with the same id still get their own image.
			if other, _ := s.Image(ctx, KindAsset, idOf("metamask"), names); other.Stored {
				t.Error("asset image served the wallet's logo")
			}
		})
		t.Run("PutReplaces", func(t *testing.T) {
			if err := s.PutImage(ctx, KindToken, "usdc", "image/png", pngBytes(t)); err != nil {
				t.Fatal(err)
			}
			if err := s.PutImage(ctx, KindToken, "usdc", "image/svg+xml; charset=utf-8", []byte(plainSVG)); err != nil {
				t.Fatal(err)
			}
			img, err := s.Image(ctx, KindToken, "usdc", nil)
			if err != nil || img.ContentType != "image/svg+xml" || string(img.Data) != plainSVG {
				t.Errorf("image = %+v, %v", img, err)
			}
		})
		t.Run("InvalidKey", func(t *testing.T) {
			for _, tt := range []struct{ kind, id, field string }{
				{"logo", "x", "kind"},
				{KindWallet, "", "id"},
				{KindWallet, "a b", "id"},
				{KindWallet, "a/b", "id"},
				{KindWallet, strings.Repeat("a", 129), "id"},
			} {
				_, err := s.Image(ctx, tt.kind, tt.id, nil)
				if e := apperr.As(err); e == nil || e.Code != apperr.Invalid || e.Field != tt.field {
					t.Errorf("Image(%q, %q) err = %v, want invalid %s", tt.kind, tt.id, err, tt.field)
				}
			}
			if _, err := s.Image(ctx, KindWallet, strings.Repeat("a", 128), nil); err != nil {
				t.Errorf("128-character id: %v", err)
			}
		})
	})
}

func TestService_PutImage(t *testing.T) {
	s := New(storetest.MustOpenSQLite(t))
	ctx := context.Background()
	webp := append([]byte("RIFF\x24\x00\x00\x00WEBPVP8 "), make([]byte, 24)...)
	tests := []struct {
		name        string
		kind, id    string
		contentType string
		data        []byte
		code, field string // "" code: success
	}{
		{"PNG", KindWallet, "w1", "image/png", pngBytes(t), "", ""},
		{"JPEG", KindWallet, "w2", "image/jpeg", jpegBytes(t), "", ""},
		{"WebP", KindWallet, "w3", "image/webp", webp, "", ""},
		{"SVG", KindAsset, "a1", "image/svg+xml", []byte(plainSVG), "", ""},
		{"SVGDataImage", KindAsset, "a2", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><image href="data:image/png;base64,AAAA"/></svg>`), "", ""},
		{"BadKind", "logo", "x", "image/png", pngBytes(t), apperr.Invalid, "kind"},
		{"BadID", KindWallet, "../x", "image/png", pngBytes(t), apperr.Invalid, "id"},
		{"GIF", KindWallet, "x", "image/gif", []byte("GIF89a"), apperr.Unsupported, "content_type"},
		{"NoContentType", KindWallet, "x", "", pngBytes(t), apperr.Unsupported, "content_type"},
		{"Empty", KindWallet, "x", "image/png", nil, apperr.Invalid, "data"},
		{"TooLarge", KindWallet, "x", "image/png", append(pngBytes(t), make([]byte, MaxImageBytes)...), apperr.TooLarge, "data"},
		{"PNGIsJPEG", KindWallet, "x", "image/png", jpegBytes(t), apperr.Invalid, "data"},
		{"JPEGIsText", KindWallet, "x", "image/jpeg", []byte("hello"), apperr.Invalid, "data"},
		{"SVGIsHTML", KindWallet, "x", "image/svg+xml", []byte(`<html><body>hi</body></html>`), apperr.Invalid, "data"},
		{"SVGNotXML", KindWallet, "x", "image/svg+xml", []byte(`<svg><rect></svg>`), apperr.Invalid, "data"},
		{"SVGEmptyDoc", KindWallet, "x", "image/svg+xml", []byte(`<?xml version="1.0"?>`), apperr.Invalid, "data"},
		{"SVGScript", KindWallet, "x", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), apperr.Invalid, "data"},
		{"SVGOnload", KindWallet, "x", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`), apperr.Invalid, "data"},
		{"SVGForeignObject", KindWallet, "x", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><foreignObject/></svg>`), apperr.Invalid, "data"},
		{"SVGExternalHref", KindWallet, "x", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="https://evil.example/x.png"/></svg>`), apperr.Invalid, "data"},
		{"SVGJavascriptHref", KindWallet, "x", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect/></a></svg>`), apperr.Invalid, "data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.PutImage(ctx, tt.kind, tt.id, tt.contentType, tt.data)
			if tt.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			e := apperr.As(err)
			if e == nil || e.Code != tt.code || e.Field != tt.field {
				t.Fatalf("err = %v, want %s %s", err, tt.code, tt.field)
			}
			if img, _ := s.Image(ctx, KindWallet, "x", nil); img.Stored {
				t.Error("a refused image was stored")
			}
		})
	}
}
