// Package contracts embeds the compiled artifacts of the Solidity sources in
// src/, so a Go build needs no Node or solc. Regenerate them with
// `cd contracts && npm install && node compile.mjs` after editing a source.
package contracts

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

//go:embed artifacts/*.json
var artifacts embed.FS

// Artifact is one compiled contract: its ABI and creation bytecode.
type Artifact struct {
	Name     string
	ABI      abi.ABI
	Bytecode []byte
}

// Load returns the artifact of the contract with the given name, e.g. "DevToken".
func Load(name string) (*Artifact, error) {
	raw, err := artifacts.ReadFile("artifacts/" + name + ".json")
	if err != nil {
		return nil, fmt.Errorf("contracts: no artifact %q", name)
	}
	var file struct {
		ABI      json.RawMessage `json:"abi"`
		Bytecode string          `json:"bytecode"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		return nil, fmt.Errorf("contracts: %s: %w", name, err)
	}
	parsed, err := abi.JSON(strings.NewReader(string(file.ABI)))
	if err != nil {
		return nil, fmt.Errorf("contracts: %s: abi: %w", name, err)
	}
	code, err := hexutil.Decode(file.Bytecode)
	if err != nil || len(code) == 0 {
		return nil, fmt.Errorf("contracts: %s: bad bytecode", name)
	}
	return &Artifact{Name: name, ABI: parsed, Bytecode: code}, nil
}

// MustLoad is Load for artifacts that are known to be embedded; it panics
// otherwise, which can only be a build mistake.
func MustLoad(name string) *Artifact {
	a, err := Load(name)
	if err != nil {
		panic(err)
	}
	return a
}

// Names lists the embedded artifacts, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(artifacts, "artifacts")
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".json"))
	}
	sort.Strings(names)
	return names
}

// DeployData returns the creation code followed by the ABI-encoded
// constructor arguments.
func (a *Artifact) DeployData(args ...any) ([]byte, error) {
	enc, err := a.ABI.Pack("", args...)
	if err != nil {
		return nil, fmt.Errorf("contracts: %s: constructor: %w", a.Name, err)
	}
	return append(append([]byte{}, a.Bytecode...), enc...), nil
}
