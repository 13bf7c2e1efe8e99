package icons

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"testing"
)

func TestManifest(t *testing.T) {
	s, err := read()
	if err != nil {
		t.Fatal(err)
	}
	src := s.manifest.Source
	if src.Package != "@web3icons/core" || src.Version == "" || src.Licence != "MIT" || !strings.Contains(src.Copyright, "0xa3k5") {
		t.Errorf("source = %+v", src)
	}
	if lic, err := files.ReadFile(src.LicenceFile); err != nil || !bytes.Contains(lic, []byte(src.Copyright)) || !bytes.Contains(lic, []byte("Permission is hereby granted")) {
		t.Errorf("licence file %q: %v", src.LicenceFile, err)
	}

	// Every SVG in the folder is named by the manifest: a rerun of the
	// import removes what is no longer used.
	used := map[string]bool{}
	for _, m := range []map[string]string{s.manifest.Networks, s.manifest.Tokens, s.manifest.Wallets} {
		for _, path := range m {
			used[path] = true
		}
	}
	err = fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".svg") && !used[path] {
			t.Errorf("%s is not in icons.json", path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for sym := range s.manifest.Tokens {
		if sym != strings.ToUpper(sym) {
			t.Errorf("token key %q is not upper case", sym)
		}
	}
}

// The icons cover the networks of data/networks.json and the wallets named
// in the manifest exist in data/wallets.json.
func TestCoversOurData(t *testing.T) {
	var networks []struct {
		CAIP string `json:"caipNetworkId"`
	}
	readJSON(t, "../networks.json", &networks)
	for _, n := range networks {
		if _, ok := Network(n.CAIP); !ok {
			t.Errorf("no icon for network %s", n.CAIP)
		}
	}
	var wallets []struct {
		Slug string `json:"slug"`
	}
	readJSON(t, "../wallets.json", &wallets)
	slugs := map[string]bool{}
	for _, w := range wallets {
		slugs[w.Slug] = true
	}
	for slug := range load().manifest.Wallets {
		if !slugs[slug] {
			t.Errorf("icon for wallet %q, which is not in wallets.json", slug)
		}
	}
}

func TestLookup(t *testing.T) {
	for name, tc := range map[string]struct {
		get  func(string) ([]byte, bool)
		id   string
		want bool
	}{
		"Network":         {Network, "eip155:1", true},
		"SolanaDevnet":    {Network, "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", true},
		"UnknownNetwork":  {Network, "eip155:999999", false},
		"Token":           {Token, "USDC", true},
		"TokenLowerCase":  {Token, "wFTM", true},
		"BridgedToken":    {Token, "USDC.e", true},
		"TokenNoIcon":     {Token, "XDAI", false},
		"Wallet":          {Wallet, "metamask", true},
		"WalletNoIcon":    {Wallet, "bitski", false},
		"WalletByID":      {Wallet, "349ea085e7c763adbad98208288bd670a758fdf5f9c60d6da3f114e12b84b146", false},
		"NetworkNotToken": {Token, "eip155:1", false},
	} {
		t.Run(name, func(t *testing.T) {
			b, ok := tc.get(tc.id)
			if ok != tc.want || ok && !bytes.HasPrefix(b, []byte("<svg ")) {
				t.Errorf("%s: ok = %v (want %v), %.40q", tc.id, ok, tc.want, b)
			}
		})
	}
	eth, _ := Token("ETH")
	weth, _ := Token("WETH")
	if !bytes.Equal(eth, weth) {
		t.Error("WETH does not show the ETH icon")
	}
}

// TestSafe parses every icon as XML and refuses anything active or remote:
// latchd serves them from its own origin, so they must be plain drawings.
func TestSafe(t *testing.T) {
	err := fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(path, ".svg") {
			return err
		}
		b, _ := files.ReadFile(path)
		if err := plainSVG(b); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		if len(b) > 16<<10 {
			t.Errorf("%s: %d bytes; icons are small", path, len(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The check itself refuses what it should.
	for _, bad := range []string{
		`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`,
		`<svg xmlns="http://www.w3.org/2000/svg"><foreignObject/></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/1999/xlink"><use x:href="https://evil.test/a.svg#a"/></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg"><image href="data:image/png;base64,AA"/></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg"><style>rect{fill:url(https://evil.test/x)}</style></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg"><rect fill="url(https://evil.test/x)"/></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(#a);stroke:url(//evil.test/x)"/></svg>`,
		`<html><svg/></html>`,
	} {
		if plainSVG([]byte(bad)) == nil {
			t.Errorf("accepted %s", bad)
		}
	}
	if err := plainSVG([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><defs><linearGradient id="a"/></defs><rect fill="url(#a)"/></svg>`)); err != nil {
		t.Errorf("refused a local gradient: %v", err)
	}
}

// plainSVG is stricter than the check latchd applies to uploaded images:
// shapes, gradients and masks only, and references only to the same file.
func plainSVG(b []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(b))
	root := true
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		switch el := tok.(type) {
		case xml.StartElement:
			name := el.Name.Local
			if root && name != "svg" {
				return errors.New("root is not <svg>")
			}
			root = false
			switch strings.ToLower(name) {
			case "script", "foreignobject", "style", "image", "iframe", "a", "animate", "set", "feimage":
				return errors.New("<" + name + "> is not allowed")
			}
			for _, a := range el.Attr {
				v := strings.TrimSpace(a.Value)
				switch attr := strings.ToLower(a.Name.Local); {
				case strings.HasPrefix(attr, "on"):
					return errors.New("event handler " + a.Name.Local)
				case attr == "href" && !strings.HasPrefix(v, "#"):
					return errors.New("external reference " + v)
				case strings.Count(v, "url(") != strings.Count(v, "url(#"):
					return errors.New("external url() in " + a.Name.Local)
				}
			}
		case xml.ProcInst, xml.Directive:
			return errors.New("processing instruction or DOCTYPE")
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}
