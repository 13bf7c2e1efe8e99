package account

import (
	"context"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/indexer"
	"github.com/latchkit/latch/internal/network"
)

// History page sizes.
const (
	DefaultHistoryLimit = 50
	MaxHistoryLimit     = 100
)

// HistoryPage is a page of an address's history on one network.
type HistoryPage struct {
	Network *network.Network
	ChainID uint64
	Address common.Address
	indexer.Page
}

// History returns a page of addr's history on a network, newest first,
// before cursor ("" for the first page). Errors: apperr.Invalid for the
// network id or cursor, apperr.NotFound for a network that is unknown or
// not indexed.
func (s *Service) History(ctx context.Context, caipID string, addr common.Address, cursor string, limit int) (HistoryPage, error) {
	n, chainID, err := s.evmNetwork(caipID)
	if err != nil {
		return HistoryPage{}, err
	}
	if s.cfg.Indexer == nil || !s.cfg.Indexer.Follows(chainID) {
		return HistoryPage{}, apperr.Fieldf(apperr.NotFound, "chainId", "History is not indexed for %s; the operator can enable it with --index-network %s=<start block>", caipID, caipID)
	}
	var before *indexer.Cursor
	if cursor != "" {
		c, err := indexer.ParseCursor(cursor)
		if err != nil {
			return HistoryPage{}, err
		}
		before = &c
	}
	if limit <= 0 {
		limit = DefaultHistoryLimit
	}
	page, err := s.cfg.Store.History(ctx, s.cfg.Tokens, chainID, addr, before, min(limit, MaxHistoryLimit))
	if err != nil {
		return HistoryPage{}, err
	}
	return HistoryPage{Network: n, ChainID: chainID, Address: addr, Page: page}, nil
}

// Wire shapes of GET /v1/account/{address}/history (api-shapes §3.2; the
// transfer fields are snake_case as the client reads them).
type (
	historyResponse struct {
		Data []historyItem `json:"data"`
		Next *string       `json:"next"`
	}
	historyItem struct {
		ID        string            `json:"id"`
		Metadata  historyMetadata   `json:"metadata"`
		Transfers []historyTransfer `json:"transfers"`
		Approvals []historyApproval `json:"approvals,omitempty"`
	}
	historyMetadata struct {
		OperationType string `json:"operationType"`
		Hash          string `json:"hash"`
		Chain         string `json:"chain"`
		MinedAt       string `json:"minedAt"`
		SentFrom      string `json:"sentFrom"`
		SentTo        string `json:"sentTo"`
		Status        string `json:"status"`
		Nonce         uint64 `json:"nonce"`
	}
	historyTransfer struct {
		FungibleInfo *fungibleInfo `json:"fungible_info,omitempty"`
		NFTInfo      *nftInfo      `json:"nft_info,omitempty"`
		Direction    string        `json:"direction"`
		Quantity     numeric       `json:"quantity"`
		Value        *float64      `json:"value,omitempty"`
		Price        *float64      `json:"price,omitempty"`
		Sender       string        `json:"sender"`
		Recipient    string        `json:"recipient"`
	}
	fungibleInfo struct {
		Name    string   `json:"name"`
		Symbol  string   `json:"symbol"`
		Icon    iconInfo `json:"icon"`
		Address string   `json:"address,omitempty"`
	}
	iconInfo struct {
		URL string `json:"url"`
	}
	nftInfo struct {
		Name  string   `json:"name"`
		Flags nftFlags `json:"flags"`
	}
	nftFlags struct {
		IsSpam bool `json:"is_spam"`
	}
	numeric struct {
		Numeric string `json:"numeric"`
	}
	historyApproval struct {
		FungibleInfo fungibleInfo `json:"fungible_info"`
		Spender      string       `json:"spender"`
		Quantity     numeric      `json:"quantity"`
		Unlimited    bool         `json:"unlimited"`
	}
)

// unlimitedAllowance: allowances from here up are "unlimited" in practice
// (wallets approve 2^256-1; some tokens store a little less).
var unlimitedAllowance = new(big.Int).Lsh(big.NewInt(1), 255)

// icons builds token image URLs.
type icons func(symbol string) string

// render turns a page into the wire shape.
func (p HistoryPage) render(icon icons) historyResponse {
	out := historyResponse{Data: make([]historyItem, 0, len(p.Items))}
	if p.Next != nil {
		s := p.Next.String()
		out.Next = &s
	}
	native := p.Network.NativeCurrency
	for _, a := range p.Items {
		item := historyItem{
			ID: a.Hash.Hex(),
			Metadata: historyMetadata{
				OperationType: a.Operation,
				Hash:          a.Hash.Hex(),
				Chain:         p.Network.CAIPNetworkID,
				MinedAt:       a.Time.UTC().Format("2006-01-02T15:04:05Z"),
				SentFrom:      a.From.Hex(),
				Status:        "confirmed",
				Nonce:         a.Nonce,
			},
			Transfers: []historyTransfer{},
		}
		if a.To != nil {
			item.Metadata.SentTo = a.To.Hex()
		}
		if a.Failed {
			item.Metadata.Status = "failed"
		}
		for _, m := range a.Movements {
			if m.Kind == indexer.KindApproval {
				item.Approvals = append(item.Approvals, historyApproval{
					FungibleInfo: tokenInfo(m.Token, p.Network.CAIPNetworkID, icon),
					Spender:      m.To.Hex(),
					Quantity:     numeric{formatUnits(m.Amount, max(m.Token.Decimals, 0))},
					Unlimited:    m.Amount.Cmp(unlimitedAllowance) >= 0,
				})
				continue
			}
			t := historyTransfer{Sender: m.From.Hex(), Recipient: m.To.Hex()}
			switch {
			case m.From == p.Address && m.To == p.Address:
				t.Direction = "self"
			case m.From == p.Address:
				t.Direction = "out"
			default:
				t.Direction = "in"
			}
			decimals := native.Decimals
			switch m.Kind {
			case indexer.KindNative:
				t.FungibleInfo = &fungibleInfo{Name: native.Name, Symbol: native.Symbol, Icon: iconInfo{icon(native.Symbol)}}
			case indexer.KindERC20:
				fi := tokenInfo(m.Token, p.Network.CAIPNetworkID, icon)
				t.FungibleInfo = &fi
				decimals = max(m.Token.Decimals, 0)
			case indexer.KindERC721:
				name := m.Token.Name
				if name == "" {
					name = shortAddress(m.Token.Address)
				}
				// An NFT minted to the address by a transaction someone else
				// sent is the shape of airdrop spam; the client hides it.
				spam := t.Direction == "in" && m.From == (common.Address{}) && a.From != p.Address
				t.NFTInfo = &nftInfo{Name: name + " #" + m.Amount.String(), Flags: nftFlags{IsSpam: spam}}
				t.Quantity = numeric{"1"}
				item.Transfers = append(item.Transfers, t)
				continue
			}
			t.Quantity = numeric{formatUnits(m.Amount, decimals)}
			if m.Price != nil {
				price := *m.Price
				value := fiat(unitsFloat(m.Amount, decimals) * price)
				t.Price, t.Value = &price, &value
			}
			item.Transfers = append(item.Transfers, t)
		}
		out.Data = append(out.Data, item)
	}
	return out
}

func tokenInfo(t *indexer.Token, caipID string, icon icons) fungibleInfo {
	fi := fungibleInfo{Name: t.Name, Symbol: t.Symbol, Address: caipID + ":" + t.Address.Hex()}
	if fi.Symbol == "" {
		fi.Symbol = shortAddress(t.Address)
	}
	if fi.Name == "" {
		fi.Name = fi.Symbol
	}
	fi.Icon.URL = icon(fi.Symbol)
	return fi
}

// shortAddress is the history display form: 4 leading and 6 trailing characters (spec §9).
func shortAddress(a common.Address) string {
	h := a.Hex()
	return h[:4] + "…" + h[len(h)-6:]
}

// isMissingAddress: what the client sends when it has no account address.
func isMissingAddress(s string) bool {
	s = strings.TrimSpace(s)
	return s == "" || s == "undefined" || s == "null"
}
