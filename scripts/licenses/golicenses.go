package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/licensecheck"
)

// allowed are the OSI-approved licences (licensecheck's identifiers) that
// code linked into latchd may carry. The LGPL-3.0 is go-ethereum's; what it
// asks of a distributor is in docs/licences.md.
var allowed = map[string]bool{
	"MIT": true, "MIT-0": true, "ISC": true, "0BSD": true, "BSD-2-Clause": true, "BSD-3-Clause": true,
	"Apache-2.0": true, "MPL-2.0": true, "Zlib": true, "BSL-1.0": true, "Unlicense": true, "CC0-1.0": true,
	"LGPL-3.0": true, "LGPL-3.0-or-later": true,
}

// licenceFiles names, per module, the files that state its licence when the
// module root holds others that do not apply to what latchd links. Each entry
// says why.
var licenceFiles = map[string][]string{
	// go-ethereum's library (everything outside cmd/) is under the LGPL-3.0
	// (COPYING.LESSER); COPYING, the GPL-3.0, covers its cmd/ programs, which
	// latchd does not link (gplFiles checks every linked file's header).
	"github.com/ethereum/go-ethereum": {"COPYING.LESSER"},
	// LICENSE-LOGO covers the project's logo image, which no Go package contains.
	"modernc.org/memory": {"LICENSE", "LICENSE-GO", "LICENSE-MMAP-GO"},
}

// accompanying names licence texts that go into the notices without stating
// the licence of what latchd links.
var accompanying = map[string][]string{
	// The LGPL-3.0 is a set of additional permissions on top of the GPL-3.0;
	// its §4(b) asks that a copy of both accompany a combined work.
	"github.com/ethereum/go-ethereum": {"COPYING"},
}

// publicDomain lists licence files that are a public-domain dedication, which
// licensecheck does not classify; each was read by hand.
var publicDomain = map[string]bool{
	"modernc.org/sqlite/LICENSE-SQLITE": true, // SQLite's "The author disclaims copyright to this source code" blessing
}

// sourceDeclared lists modules that ship no licence file but state their
// licence in a source file's header; the header must still say so.
var sourceDeclared = map[string]struct{ file, says, id string }{
	// The dev build's only such module (through go-ethereum's node).
	"github.com/holiman/bloomfilter/v2": {"bloomfilter.go", "MIT license", "MIT"},
}

// build is one way of building latchd.
type build struct {
	name string // "production" or "dev"
	tags string
}

// goBuild is what a build links.
type goBuild struct {
	build
	goVersion string
	goLicence []byte // the Go distribution's LICENSE (the standard library and runtime)
	modules   []module
}

// module is a Go module a build links, with its licence files.
type module struct {
	build   string
	path    string
	version string
	files   []licenceFile
	notices []licenceFile // NOTICE files (Apache-2.0 §4d asks to pass them on) and accompanying texts
}

// licenceFile is one licence text and what licensecheck found in it.
type licenceFile struct {
	name string
	text []byte
	ids  []string // licences found; empty when nothing was recognised
}

// goPackage is the part of `go list -json` this program reads.
type goPackage struct {
	ImportPath string
	Dir        string
	Standard   bool
	GoFiles    []string
	Module     *struct {
		Path    string
		Version string
		Dir     string
		Main    bool
		Replace *struct{ Path, Version, Dir string }
	}
}

// listPackages lists the packages latchd links in b, as the Makefile builds it.
func listPackages(root string, b build) ([]goPackage, error) {
	cmd := exec.Command("go", "list", "-deps", "-json", "-tags", b.tags, "./cmd/latchd")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b.tags != "" {
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list (%s build): %v: %s", b.name, err, stderr.String())
	}
	var pkgs []goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// goModules finds the modules build b links and reads their licences.
func goModules(root string, b build) (goBuild, error) {
	gb := goBuild{build: b}
	pkgs, err := listPackages(root, b)
	if err != nil {
		return gb, err
	}
	goroot, err := exec.Command("go", "env", "GOROOT", "GOVERSION").Output()
	if err != nil {
		return gb, err
	}
	env := strings.Fields(string(goroot))
	gb.goVersion = env[1]
	if gb.goLicence, err = os.ReadFile(filepath.Join(env[0], "LICENSE")); err != nil {
		return gb, err
	}
	seen := map[string]bool{}
	for _, p := range pkgs {
		if p.Standard || p.Module == nil || p.Module.Main || seen[p.Module.Path] {
			continue
		}
		seen[p.Module.Path] = true
		path, version, dir := p.Module.Path, p.Module.Version, p.Module.Dir
		if r := p.Module.Replace; r != nil {
			version, dir = r.Version, r.Dir
		}
		if dir == "" {
			return gb, fmt.Errorf("%s %s is not in the module cache (go mod download)", path, version)
		}
		m := module{build: b.name, path: path, version: version}
		if m.files, m.notices, err = readLicences(path, dir); err != nil {
			return gb, err
		}
		gb.modules = append(gb.modules, m)
	}
	slices.SortFunc(gb.modules, func(a, b module) int { return strings.Compare(a.path, b.path) })
	return gb, nil
}

// readLicences reads a module's licence and NOTICE files from its root.
func readLicences(path, dir string) (files, notices []licenceFile, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	only := licenceFiles[path]
	for _, e := range entries {
		name := e.Name()
		upper := strings.ToUpper(name)
		if e.IsDir() {
			continue
		}
		isNotice := strings.HasPrefix(upper, "NOTICE")
		isLicence := strings.HasPrefix(upper, "LICEN") || strings.HasPrefix(upper, "COPYING") || strings.HasPrefix(upper, "UNLICENSE")
		if slices.Contains(accompanying[path], name) {
			isNotice = true
		} else if !isNotice && !isLicence || only != nil && isLicence && !slices.Contains(only, name) {
			continue
		}
		text, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, nil, err
		}
		f := licenceFile{name: name, text: text}
		if isNotice {
			notices = append(notices, f)
			continue
		}
		if publicDomain[path+"/"+name] {
			f.ids = []string{"public domain"}
		} else {
			f.ids = classify(text)
		}
		files = append(files, f)
	}
	if d, ok := sourceDeclared[path]; ok && len(files) == 0 {
		header, err := fileHeader(filepath.Join(dir, d.file))
		if err != nil {
			return nil, nil, err
		}
		if !strings.Contains(header, d.says) {
			return nil, nil, fmt.Errorf("%s: the header of %s no longer says %q", path, d.file, d.says)
		}
		files = append(files, licenceFile{name: d.file + " (header)", text: []byte(header), ids: []string{d.id}})
	}
	return files, notices, nil
}

// classify names the licences licensecheck recognises in text.
func classify(text []byte) []string {
	var ids []string
	for _, m := range licensecheck.Scan(text).Match {
		if !m.IsURL && !slices.Contains(ids, m.ID) {
			ids = append(ids, m.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

// problems says what is wrong with m's licences: none found, or one that is
// not allowed.
func (m module) problems() []string {
	where := fmt.Sprintf("%s build: Go module %s %s", m.build, m.path, m.version)
	if len(m.files) == 0 {
		return []string{where + ": no licence file"}
	}
	var out []string
	for _, f := range m.files {
		if len(f.ids) == 0 {
			out = append(out, fmt.Sprintf("%s: %s: no licence recognised", where, f.name))
		}
		for _, id := range f.ids {
			if !allowed[id] && id != "public domain" {
				out = append(out, fmt.Sprintf("%s: %s: %s is not on the allowlist", where, f.name, id))
			}
		}
	}
	return out
}

// licences is m's licences for the notices, e.g. "MIT" or "Apache-2.0, BSD-3-Clause".
func (m module) licences() string {
	var ids []string
	for _, f := range m.files {
		for _, id := range f.ids {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	return strings.Join(ids, ", ")
}

// gplFiles lists the Go files build b links whose licence header (the
// comment block before the package clause) names the GNU General Public
// License and not the Lesser one.
func gplFiles(root string, b build) ([]string, error) {
	pkgs, err := listPackages(root, b)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range pkgs {
		if p.Standard {
			continue
		}
		for _, name := range p.GoFiles {
			header, err := fileHeader(filepath.Join(p.Dir, name))
			if err != nil {
				return nil, err
			}
			if isGPLHeader(header) {
				out = append(out, p.ImportPath+"/"+name)
			}
		}
	}
	return out, nil
}

// fileHeader is the text of a Go file before its package clause.
func fileHeader(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var b strings.Builder
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		if strings.HasPrefix(line, "package ") {
			break
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String(), s.Err()
}

// isGPLHeader reports whether a file header licenses the file under the GPL
// (not the LGPL, "GNU Lesser General Public License").
func isGPLHeader(header string) bool {
	h := strings.Join(strings.Fields(strings.NewReplacer("//", " ", "/*", " ", "*/", " ", "*", " ").Replace(header)), " ")
	return strings.Contains(h, "GNU General Public License") || strings.Contains(h, "GNU Affero General Public License")
}
