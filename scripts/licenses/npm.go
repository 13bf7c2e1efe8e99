package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// npmAllowed are the SPDX ids (package.json "license") accepted for npm code
// that ends in the frame or in an app's bundle.
var npmAllowed = map[string]bool{
	"MIT": true, "MIT-0": true, "ISC": true, "0BSD": true, "BSD-2-Clause": true, "BSD-3-Clause": true,
	"Apache-2.0": true, "MPL-2.0": true, "Zlib": true, "Unlicense": true, "CC0-1.0": true, "BlueOak-1.0.0": true,
}

// npmPackage is an installed npm package with its licence.
type npmPackage struct {
	name, version, licence string
	lockPath               string // key in package-lock.json, e.g. node_modules/zod
	files                  []licenceFile
}

// lockEntry is the part of a package-lock.json "packages" entry this program reads.
type lockEntry struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	License              string            `json:"license"`
	Link                 bool              `json:"link"`
	Dependencies         map[string]string `json:"dependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
}

// npmClosure is every package the runtime dependencies ("dependencies" and
// installed "optionalDependencies", transitively; peer dependencies are the
// app's own) of the workspaces at dirs resolve to in web/package-lock.json,
// our own workspaces left out, with licence texts from web/node_modules.
func npmClosure(web string, dirs ...string) ([]npmPackage, error) {
	raw, err := os.ReadFile(filepath.Join(web, "package-lock.json"))
	if err != nil {
		return nil, err
	}
	var lock struct {
		Packages map[string]lockEntry `json:"packages"`
	}
	if err := json.Unmarshal(raw, &lock); err != nil {
		return nil, fmt.Errorf("package-lock.json: %w", err)
	}
	seen := map[string]bool{}
	var out []npmPackage
	var visit func(from string) error
	visit = func(from string) error {
		e := lock.Packages[from]
		deps := make([]string, 0, len(e.Dependencies)+len(e.OptionalDependencies))
		for name := range e.Dependencies {
			deps = append(deps, name)
		}
		for name := range e.OptionalDependencies {
			deps = append(deps, name)
		}
		slices.Sort(deps)
		for _, name := range deps {
			at, ok := resolve(lock.Packages, from, name)
			if !ok {
				if _, optional := e.OptionalDependencies[name]; optional {
					continue
				}
				return fmt.Errorf("package-lock.json: %s needs %s, which is not installed", from, name)
			}
			dep := lock.Packages[at]
			if dep.Link || !strings.Contains(at, "node_modules/") {
				continue // one of our workspaces
			}
			if seen[at] {
				continue
			}
			seen[at] = true
			p := npmPackage{name: name, version: dep.Version, licence: dep.License, lockPath: at}
			if p.files, err = npmLicenceFiles(filepath.Join(web, filepath.FromSlash(at))); err != nil {
				return err
			}
			out = append(out, p)
			if err := visit(at); err != nil {
				return err
			}
		}
		return nil
	}
	for _, d := range dirs {
		if _, ok := lock.Packages[d]; !ok {
			return nil, fmt.Errorf("package-lock.json has no workspace %s", d)
		}
		if err := visit(d); err != nil {
			return nil, err
		}
	}
	// One entry per name@version: copies of a version installed at several
	// paths are one package in a bundle.
	slices.SortFunc(out, func(a, b npmPackage) int {
		return strings.Compare(a.name+"@"+a.version+" "+a.lockPath, b.name+"@"+b.version+" "+b.lockPath)
	})
	out = slices.CompactFunc(out, func(a, b npmPackage) bool { return a.name == b.name && a.version == b.version })
	return out, nil
}

// resolve finds the package name resolves to from the package at from, as
// Node does: from's own node_modules, then each enclosing one, then the root's.
func resolve(pkgs map[string]lockEntry, from, name string) (string, bool) {
	dir := from
	for {
		at := path.Join(dir, "node_modules", name)
		if dir == "" {
			at = path.Join("node_modules", name)
		}
		if _, ok := pkgs[at]; ok {
			return at, true
		}
		if dir == "" {
			return "", false
		}
		// Up to the enclosing package: strip "/node_modules/<name>" (scoped names have two parts).
		i := strings.LastIndex(dir, "node_modules/")
		if i < 0 {
			dir = ""
			continue
		}
		dir = strings.TrimSuffix(dir[:i], "/")
	}
}

// npmLicenceFiles reads an installed package's licence files.
func npmLicenceFiles(dir string) ([]licenceFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%w (is web/node_modules installed? cd web && npm ci)", err)
	}
	var files []licenceFile
	for _, e := range entries {
		upper := strings.ToUpper(e.Name())
		if e.IsDir() || !(strings.HasPrefix(upper, "LICEN") || strings.HasPrefix(upper, "COPYING") || strings.HasPrefix(upper, "NOTICE")) {
			continue
		}
		text, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		files = append(files, licenceFile{name: e.Name(), text: text, ids: classify(text)})
	}
	return files, nil
}

// problems says what is wrong with p's licence.
func (p npmPackage) problems() []string {
	where := fmt.Sprintf("npm package %s@%s (%s)", p.name, p.version, p.lockPath)
	if !licenceExprAllowed(p.licence) {
		return []string{fmt.Sprintf("%s: licence %q is not on the allowlist", where, p.licence)}
	}
	return nil
}

// licenceExprAllowed accepts an SPDX expression when one alternative of its
// ORs has only allowed licences, e.g. "(MIT OR Apache-2.0)" or "MIT AND ISC".
func licenceExprAllowed(expr string) bool {
	expr = strings.TrimSpace(strings.NewReplacer("(", " ", ")", " ").Replace(expr))
	if expr == "" {
		return false
	}
	for _, alt := range strings.Split(expr, " OR ") {
		ok := true
		for _, id := range strings.Split(alt, " AND ") {
			ok = ok && npmAllowed[strings.TrimSpace(id)]
		}
		if ok {
			return true
		}
	}
	return false
}

// publishedLicenceProblems checks every npm workspace that is published (not
// "private"): it must ship the root LICENSE (a copy in its folder, named in
// its "files").
func publishedLicenceProblems(root string) ([]string, error) {
	var manifest struct{ Workspaces []string }
	raw, err := os.ReadFile(filepath.Join(root, "web", "package.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &manifest); err != nil {
		return nil, fmt.Errorf("web/package.json: %w", err)
	}
	licence, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, ws := range manifest.Workspaces {
		dir := filepath.Join(root, "web", filepath.FromSlash(ws))
		raw, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err != nil {
			return nil, err
		}
		var pkg struct {
			Name    string
			Private bool
			Files   []string
		}
		if err := json.Unmarshal(raw, &pkg); err != nil {
			return nil, fmt.Errorf("web/%s/package.json: %w", ws, err)
		}
		if pkg.Private {
			continue
		}
		if have, err := os.ReadFile(filepath.Join(dir, "LICENSE")); err != nil || string(have) != string(licence) {
			problems = append(problems, fmt.Sprintf("%s (web/%s): LICENSE is missing or differs from the root LICENSE", pkg.Name, ws))
		}
		if pkg.Files != nil && !slices.Contains(pkg.Files, "LICENSE") {
			problems = append(problems, fmt.Sprintf("%s (web/%s): package.json \"files\" does not name LICENSE, so npm would not publish it", pkg.Name, ws))
		}
	}
	return problems, nil
}
