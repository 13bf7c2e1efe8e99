// Package data embeds latchd's seed data: the wallet registry, the networks
// and the token lists (started from shared/data, owned by Latch from then on).
package data

import _ "embed"

// Wallets is wallets.json: the wallet registry loaded into the store at start.
//
//go:embed wallets.json
var Wallets []byte

// Networks is networks.json: the networks latchd knows.
//
//go:embed networks.json
var Networks []byte

// Tokens is tokens.json: well-known ERC-20 tokens per CAIP-2 network.
//
//go:embed tokens.json
var Tokens []byte
