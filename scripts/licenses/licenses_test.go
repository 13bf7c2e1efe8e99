package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	mit, err := os.ReadFile("../../LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	if got := classify(mit); !slices.Equal(got, []string{"MIT"}) {
		t.Fatalf("classify(LICENSE) = %v, want [MIT]", got)
	}
	if got := classify([]byte("All rights reserved. Do not copy.")); len(got) != 0 {
		t.Fatalf("classify(proprietary) = %v, want nothing", got)
	}
	// go-ethereum's two licences, from the module cache when it is there.
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skip(err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "github.com/ethereum/go-ethereum@v1.17.10")
	for file, want := range map[string]string{"COPYING": "GPL-3.0", "COPYING.LESSER": "LGPL-3.0"} {
		text, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Skipf("go-ethereum not in the module cache: %v", err)
		}
		if got := classify(text); !slices.Contains(got, want) {
			t.Errorf("classify(go-ethereum %s) = %v, want %s", file, got, want)
		}
	}
}

func TestModuleProblems(t *testing.T) {
	for name, tc := range map[string]struct {
		files []licenceFile
		want  string
	}{
		"OK":           {[]licenceFile{{name: "LICENSE", ids: []string{"MIT"}}}, ""},
		"PublicDomain": {[]licenceFile{{name: "LICENSE-SQLITE", ids: []string{"public domain"}}}, ""},
		"NoFile":       {nil, "no licence file"},
		"Unrecognised": {[]licenceFile{{name: "LICENSE"}}, "LICENSE: no licence recognised"},
		"GPL":          {[]licenceFile{{name: "COPYING", ids: []string{"GPL-3.0"}}}, "COPYING: GPL-3.0 is not on the allowlist"},
		"OneOfTwo":     {[]licenceFile{{name: "LICENSE", ids: []string{"MIT"}}, {name: "LICENSE-X", ids: []string{"AGPL-3.0"}}}, "AGPL-3.0 is not on the allowlist"},
	} {
		t.Run(name, func(t *testing.T) {
			got := strings.Join(module{build: "production", path: "example.com/m", version: "v1.0.0", files: tc.files}.problems(), "\n")
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Fatalf("problems = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestIsGPLHeader(t *testing.T) {
	for header, want := range map[string]bool{
		"// Copyright 2025 go-ethereum Authors\n// This file is part of go-ethereum.\n//\n// go-ethereum is free software: you can redistribute it and/or modify\n// it under the terms of the GNU General Public License as published by\n": true,
		"// The go-ethereum library is free software: you can redistribute it and/or modify\n// it under the terms of the GNU Lesser General Public License as published by\n":                                                               false,
		"/*\n * Licensed under the GNU Affero General\n * Public License v3\n */\n":                                       true,
		"// Copyright 2024 The Go Authors. All rights reserved.\n// Use of this source code is governed by a BSD-style\n": false,
		"": false,
	} {
		if got := isGPLHeader(header); got != want {
			t.Errorf("isGPLHeader(%q) = %v, want %v", header, got, want)
		}
	}
}

func TestReadLicences(t *testing.T) {
	dir := t.TempDir()
	mit, _ := os.ReadFile("../../LICENSE")
	os.WriteFile(filepath.Join(dir, "LICENSE.txt"), mit, 0o644)
	os.WriteFile(filepath.Join(dir, "NOTICE"), []byte("Example\nCopyright 2020 Someone\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("MIT licensed"), 0o644)
	files, notices, err := readLicences("example.com/m", dir)
	if err != nil || len(files) != 1 || files[0].name != "LICENSE.txt" || !slices.Equal(files[0].ids, []string{"MIT"}) || len(notices) != 1 {
		t.Fatalf("readLicences = %+v, %+v, %v", files, notices, err)
	}
	// A module whose licence is stated only in a source header: the header must still say it.
	bloom := "github.com/holiman/bloomfilter/v2"
	os.WriteFile(filepath.Join(dir, "bloomfilter.go"), []byte("// Package bloomfilter\n//\n// MIT license\n\npackage v2\n"), 0o644)
	os.Remove(filepath.Join(dir, "LICENSE.txt"))
	if files, _, err := readLicences(bloom, dir); err != nil || len(files) != 1 || files[0].ids[0] != "MIT" {
		t.Fatalf("source-declared: %+v %v", files, err)
	}
	os.WriteFile(filepath.Join(dir, "bloomfilter.go"), []byte("// Package bloomfilter\n\npackage v2\n"), 0o644)
	if _, _, err := readLicences(bloom, dir); err == nil || !strings.Contains(err.Error(), "no longer says") {
		t.Fatalf("source-declared without the statement: %v", err)
	}
}

func TestLicenceExprAllowed(t *testing.T) {
	for expr, want := range map[string]bool{
		"MIT": true, "(MIT OR Apache-2.0)": true, "MIT AND ISC": true, "(GPL-3.0 OR MIT)": true,
		"GPL-3.0": false, "MIT AND GPL-3.0": false, "": false, "SEE LICENSE IN LICENSE": false, "CC-BY-4.0": false,
	} {
		if got := licenceExprAllowed(expr); got != want {
			t.Errorf("licenceExprAllowed(%q) = %v, want %v", expr, got, want)
		}
	}
}

func TestResolve(t *testing.T) {
	pkgs := map[string]lockEntry{
		"packages/core":                         {},
		"node_modules/a":                        {},
		"node_modules/b":                        {},
		"node_modules/a/node_modules/b":         {},
		"node_modules/@s/c":                     {},
		"node_modules/@s/c/node_modules/@s/d":   {},
		"packages/core/node_modules/a":          {},
		"node_modules/@s/c/node_modules/@s/d/x": {},
	}
	for _, tc := range []struct{ from, name, want string }{
		{"packages/core", "a", "packages/core/node_modules/a"},
		{"packages/core", "b", "node_modules/b"},
		{"node_modules/a", "b", "node_modules/a/node_modules/b"},
		{"node_modules/@s/c", "@s/d", "node_modules/@s/c/node_modules/@s/d"},
		{"node_modules/@s/c/node_modules/@s/d", "a", "node_modules/a"},
		{"node_modules/@s/c/node_modules/@s/d", "missing", ""},
	} {
		got, ok := resolve(pkgs, tc.from, tc.name)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("resolve(%s, %s) = %q %v, want %q", tc.from, tc.name, got, ok, tc.want)
		}
	}
}

func TestCheckNotices(t *testing.T) {
	path := filepath.Join(t.TempDir(), noticesFile)
	if err := checkNotices(path, []byte("x")); err == nil || !strings.Contains(err.Error(), "make notices") {
		t.Fatalf("missing file: %v", err)
	}
	os.WriteFile(path, []byte("old\n"), 0o644)
	if err := checkNotices(path, []byte("new\n")); err == nil || !strings.Contains(err.Error(), "is stale") {
		t.Fatalf("stale file: %v", err)
	}
	if err := checkNotices(path, []byte("old\n")); err != nil {
		t.Fatalf("current file: %v", err)
	}
}

// TestNotices: the rendering lists each module and package once with its
// licence, and carries every text.
func TestNotices(t *testing.T) {
	prod := goBuild{goVersion: "go1.99", goLicence: []byte("Go licence text"), modules: []module{
		{path: "example.com/a", version: "v1.2.3", files: []licenceFile{{name: "LICENSE", text: []byte("A's MIT text"), ids: []string{"MIT"}}},
			notices: []licenceFile{{name: "NOTICE", text: []byte("A's notice")}}},
	}}
	frame := []npmPackage{{name: "f", version: "1.0.0", licence: "ISC", files: []licenceFile{{name: "LICENSE", text: []byte("F's text")}}}}
	widget := []npmPackage{{name: "w", version: "2.0.0", licence: "MIT"}}
	assets := []asset{{name: "icons", version: "3.0.0", licence: "MIT", dir: "data/icons", file: licenceFile{name: "LICENSE", text: []byte("Icons' text")}}}
	got := string(notices(prod, frame, assets, widget))
	for _, want := range []string{"example.com/a v1.2.3", "A's MIT text", "A's notice", "Go licence text", "f@1.0.0", "F's text", "w@2.0.0", "declares the licence MIT", "icons@3.0.0 (data/icons)", "icons@3.0.0 (data/icons): LICENSE", "Icons' text"} {
		if !strings.Contains(got, want) {
			t.Errorf("notices lack %q", want)
		}
	}
	if strings.Contains(got, "w@2.0.0: ") {
		t.Error("notices name a licence file w does not have")
	}
}

func TestPublishedLicenceProblems(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(s), 0o644)
	}
	write("LICENSE", "MIT text\n")
	write("web/package.json", `{"workspaces": ["packages/ok", "packages/nofile", "packages/notlisted", "apps/private"]}`)
	write("web/packages/ok/package.json", `{"name": "ok", "files": ["dist", "LICENSE"]}`)
	write("web/packages/ok/LICENSE", "MIT text\n")
	write("web/packages/nofile/package.json", `{"name": "nofile", "files": ["dist", "LICENSE"]}`)
	write("web/packages/notlisted/package.json", `{"name": "notlisted", "files": ["dist"]}`)
	write("web/packages/notlisted/LICENSE", "MIT text\n")
	write("web/apps/private/package.json", `{"name": "private", "private": true}`)
	problems, err := publishedLicenceProblems(root)
	got := strings.Join(problems, "\n")
	if err != nil || len(problems) != 2 || !strings.Contains(got, "nofile (web/packages/nofile): LICENSE is missing") || !strings.Contains(got, `notlisted (web/packages/notlisted): package.json "files" does not name LICENSE`) {
		t.Fatalf("problems = %q, %v", got, err)
	}
}

// TestIconAssets reads the real data/icons: an allowed licence whose text is
// in the folder; and a declared licence that the file does not hold fails.
func TestIconAssets(t *testing.T) {
	assets, err := iconAssets("../..")
	if err != nil || len(assets) != 1 {
		t.Fatalf("assets = %v, %v", assets, err)
	}
	if p := assets[0].problems(); len(p) != 0 {
		t.Errorf("data/icons: %v", p)
	}
	a := assets[0]
	a.licence = "GPL-3.0"
	if p := a.problems(); len(p) != 1 || !strings.Contains(p[0], "not on the allowlist") {
		t.Errorf("GPL: %v", p)
	}
	a.licence, a.file.ids = "Apache-2.0", []string{"MIT"}
	if p := a.problems(); len(p) != 1 || !strings.Contains(p[0], "is not the Apache-2.0 licence") {
		t.Errorf("mismatch: %v", p)
	}
}
