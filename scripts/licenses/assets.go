package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// asset is third-party artwork latchd embeds (not code): the icon set in
// data/icons, which scripts/import-icons.mjs imports and describes in
// data/icons/icons.json.
type asset struct {
	name, version, licence string
	dir                    string // in the repository, e.g. data/icons
	file                   licenceFile
}

// iconAssets reads data/icons/icons.json's source and its licence file.
func iconAssets(root string) ([]asset, error) {
	const dir = "data/icons"
	raw, err := os.ReadFile(filepath.Join(root, dir, "icons.json"))
	if err != nil {
		return nil, err
	}
	var m struct {
		Source struct {
			Package, Version, Licence, LicenceFile string
		}
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s/icons.json: %w", dir, err)
	}
	s := m.Source
	if s.Package == "" || s.Version == "" || s.LicenceFile == "" {
		return nil, fmt.Errorf("%s/icons.json: source needs package, version and licenceFile", dir)
	}
	text, err := os.ReadFile(filepath.Join(root, dir, filepath.FromSlash(s.LicenceFile)))
	if err != nil {
		return nil, fmt.Errorf("%s/icons.json: %w", dir, err)
	}
	f := licenceFile{name: s.LicenceFile, text: text, ids: classify(text)}
	return []asset{{name: s.Package, version: s.Version, licence: s.Licence, dir: dir, file: f}}, nil
}

// problems says what is wrong with a's licence: one off the allowlist, or a
// licence file that does not hold the licence the source declares.
func (a asset) problems() []string {
	where := fmt.Sprintf("%s (%s@%s)", a.dir, a.name, a.version)
	if !licenceExprAllowed(a.licence) {
		return []string{fmt.Sprintf("%s: licence %q is not on the allowlist", where, a.licence)}
	}
	if !slices.Contains(a.file.ids, a.licence) {
		return []string{fmt.Sprintf("%s: %s is not the %s licence (found %v)", where, a.file.name, a.licence, a.file.ids)}
	}
	return nil
}
