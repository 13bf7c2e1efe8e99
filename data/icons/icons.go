// Package icons embeds the network, token and wallet icons latchd serves on
// its image routes when an operator has stored no image of their own: SVGs
// from the @web3icons set (MIT; LICENSE in this folder), chosen and written
// by scripts/import-icons.mjs, which names the source version in icons.json.
package icons

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

//go:embed icons.json LICENSE networks tokens wallets
var files embed.FS

// manifest is icons.json: where the icons come from and which file each id
// gets (paths relative to this folder; ids may share a file).
type manifest struct {
	Source struct {
		Package     string `json:"package"`
		Version     string `json:"version"`
		Metadata    string `json:"metadata"`
		Licence     string `json:"licence"`
		Copyright   string `json:"copyright"`
		LicenceFile string `json:"licenceFile"`
	} `json:"source"`
	Networks map[string]string `json:"networks"` // CAIP-2 network id → file
	Tokens   map[string]string `json:"tokens"`   // upper-case token symbol → file
	Wallets  map[string]string `json:"wallets"`  // wallet slug (data/wallets.json) → file
}

type set struct {
	manifest                  manifest
	networks, tokens, wallets map[string][]byte
}

// load reads the manifest and every file it names once; a broken manifest is
// a build mistake that the package's tests catch, so it panics.
var load = sync.OnceValue(func() *set {
	s, err := read()
	if err != nil {
		panic("data/icons: " + err.Error())
	}
	return s
})

func read() (*set, error) {
	raw, err := files.ReadFile("icons.json")
	if err != nil {
		return nil, err
	}
	s := &set{}
	if err := json.Unmarshal(raw, &s.manifest); err != nil {
		return nil, fmt.Errorf("icons.json: %w", err)
	}
	resolve := func(m map[string]string) (map[string][]byte, error) {
		out := make(map[string][]byte, len(m))
		for id, path := range m {
			b, err := files.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("icons.json: %s: %w", id, err)
			}
			out[id] = b
		}
		return out, nil
	}
	if s.networks, err = resolve(s.manifest.Networks); err != nil {
		return nil, err
	}
	if s.tokens, err = resolve(s.manifest.Tokens); err != nil {
		return nil, err
	}
	if s.wallets, err = resolve(s.manifest.Wallets); err != nil {
		return nil, err
	}
	return s, nil
}

// Network returns the SVG of a network by its CAIP-2 id (eip155:1).
func Network(caipNetworkID string) ([]byte, bool) {
	b, ok := load().networks[caipNetworkID]
	return b, ok
}

// Token returns the SVG of a token by its symbol, in any case (USDC, wFTM).
func Token(symbol string) ([]byte, bool) {
	b, ok := load().tokens[strings.ToUpper(symbol)]
	return b, ok
}

// Wallet returns the SVG of a wallet by its registry slug (metamask).
func Wallet(slug string) ([]byte, bool) {
	b, ok := load().wallets[slug]
	return b, ok
}
