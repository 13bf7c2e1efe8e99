package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := CLI(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestCLI_Project(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := run(t, "project", "create", "--data-dir", dir, "--name", "Shop", "--origin", "https://shop.example", "--feature", "swaps=true", "--feature", "socials=google,github")
	if code != 0 {
		t.Fatalf("create: %d %s", code, errOut)
	}
	id := strings.TrimSpace(out)
	if len(id) != 32 {
		t.Fatalf("id %q", id)
	}

	code, _, errOut = run(t, "project", "update", "--data-dir", dir, "--id", id, "--add-origin", "https://www.shop.example", "--remove-origin", "https://shop.example", "--analytics=false", "--feature", "email=true")
	if code != 0 {
		t.Fatalf("update: %d %s", code, errOut)
	}
	code, out, _ = run(t, "project", "list", "--data-dir", dir, "--json")
	var list []struct {
		ID        string
		Origins   []string
		Analytics bool
		Features  struct {
			Email   bool
			Socials []string
			Swaps   []string
		}
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil || code != 0 {
		t.Fatalf("list: %d %v %s", code, err, out)
	}
	p := list[0]
	if len(list) != 1 || p.ID != id || strings.Join(p.Origins, ",") != "https://www.shop.example" || p.Analytics || !p.Features.Email || len(p.Features.Socials) != 2 || p.Features.Swaps[0] != "1inch" {
		t.Fatalf("list = %+v", list)
	}
	code, out, _ = run(t, "project", "list", "--data-dir", dir)
	if code != 0 || !strings.Contains(out, id) || !strings.Contains(out, "Shop") {
		t.Fatalf("table: %s", out)
	}

	for name, args := range map[string][]string{
		"NoName":       {"project", "create", "--data-dir", dir},
		"BadOrigin":    {"project", "create", "--data-dir", dir, "--name", "x", "--origin", "shop.example"},
		"BadFeature":   {"project", "create", "--data-dir", dir, "--name", "x", "--feature", "teleport=true"},
		"UnknownID":    {"project", "update", "--data-dir", dir, "--id", strings.Repeat("0", 32), "--name", "y"},
		"MalformedID":  {"project", "update", "--data-dir", dir, "--id", "xyz"},
		"NoSubcommand": {"project"},
		"BadSub":       {"project", "delete"},
		"BadCommand":   {"launch"},
	} {
		t.Run(name, func(t *testing.T) {
			if code, _, _ := run(t, args...); code == 0 {
				t.Fatal("want a non-zero exit")
			}
		})
	}
	_, out, _ = run(t, "project", "list", "--data-dir", dir, "--json")
	if strings.Count(out, `"id"`) != 1 {
		t.Fatalf("a refused command stored something: %s", out)
	}
}

func TestCLI_ImagePut(t *testing.T) {
	dir := t.TempDir()
	svg := dir + "/logo.svg"
	os.WriteFile(svg, []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="red"/></svg>`), 0o600)
	if code, out, errOut := run(t, "image", "put", "--data-dir", dir, "--kind", "token", "--id", "USDC", "--file", svg); code != 0 || !strings.Contains(out, "stored token image USDC") {
		t.Fatalf("%d %s %s", code, out, errOut)
	}
	evil := dir + "/evil.svg"
	os.WriteFile(evil, []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), 0o600)
	txt := dir + "/logo.txt"
	os.WriteFile(txt, []byte("x"), 0o600)
	for name, args := range map[string][]string{
		"ScriptInSVG": {"image", "put", "--data-dir", dir, "--kind", "token", "--id", "DAI", "--file", evil},
		"BadKind":     {"image", "put", "--data-dir", dir, "--kind", "meme", "--id", "DAI", "--file", svg},
		"BadExt":      {"image", "put", "--data-dir", dir, "--kind", "token", "--id", "DAI", "--file", txt},
		"Missing":     {"image", "put", "--data-dir", dir, "--kind", "token", "--id", "DAI", "--file", dir + "/none.png"},
		"NoPut":       {"image"},
	} {
		t.Run(name, func(t *testing.T) {
			if code, _, _ := run(t, args...); code == 0 {
				t.Fatal("want a non-zero exit")
			}
		})
	}
}
