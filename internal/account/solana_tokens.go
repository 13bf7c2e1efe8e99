package account

// KnownSolanaToken is an SPL token of a public solana network that account
// data names; PriceSymbol is the symbol of the same asset in
// data/tokens.json on PriceNetwork (an EVM network whose feed prices it), or
// "" for none.
type KnownSolanaToken struct {
	Mint         string
	Symbol       string
	Name         string
	Decimals     int
	PriceNetwork string
	PriceSymbol  string
}

// KnownSolanaTokens are the SPL tokens latchd names on the solana networks
// of data/networks.json, by CAIP-2 id. Their prices come from Ethereum's
// USDC and USDT feeds, read only when the operator gave eip155:1 an
// upstream; test networks get no price.
var KnownSolanaTokens = map[string][]KnownSolanaToken{
	"solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp": {
		{Mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", Symbol: "USDC", Name: "USD Coin", Decimals: 6, PriceNetwork: "eip155:1", PriceSymbol: "USDC"},
		{Mint: "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", Symbol: "USDT", Name: "Tether USD", Decimals: 6, PriceNetwork: "eip155:1", PriceSymbol: "USDT"},
	},
	"solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1": {
		{Mint: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU", Symbol: "USDC", Name: "USD Coin (Devnet)", Decimals: 6},
	},
}
