package indexer

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/apperr"
)

// Cursor is a position in an address's history: the (block, transaction
// index) of the last entry of a page. The next page holds what lies strictly
// before it, so blocks indexed meanwhile (all later) never shift a page.
type Cursor struct {
	Block uint64
	Index uint32
}

// cursorVersion prefixes cursors so their format can change later.
const cursorVersion = "1"

// String is the cursor as sent to clients: "1-<block>-<index>".
func (c Cursor) String() string {
	return cursorVersion + "-" + strconv.FormatUint(c.Block, 10) + "-" + strconv.FormatUint(uint64(c.Index), 10)
}

// ParseCursor parses a cursor from a previous page. Errors: apperr.Invalid.
func ParseCursor(s string) (Cursor, error) {
	bad := apperr.Fieldf(apperr.Invalid, "cursor", "Invalid cursor: pass the next value of the previous page")
	parts := strings.Split(s, "-")
	if len(s) > 40 || len(parts) != 3 || parts[0] != cursorVersion {
		return Cursor{}, bad
	}
	block, err1 := strconv.ParseUint(parts[1], 10, 63)
	index, err2 := strconv.ParseUint(parts[2], 10, 32)
	if err1 != nil || err2 != nil {
		return Cursor{}, bad
	}
	return Cursor{Block: block, Index: uint32(index)}, nil
}

// Activity is one transaction in an address's history, seen from that address.
type Activity struct {
	Hash      common.Hash
	Block     uint64
	Index     uint32
	Time      time.Time
	From      common.Address
	To        *common.Address
	Nonce     uint64
	Failed    bool
	Operation string
	// Movements are the address's own transfers and approvals (an approval
	// when the address is the owner), in transaction order.
	Movements []Movement
}

// Movement is a transfer or approval with its token's metadata.
type Movement struct {
	Kind   Kind
	Token  *Token // nil for the native coin
	From   common.Address
	To     common.Address
	Amount *big.Int // base units; the token id for an NFT
	Price  *float64 // USD per whole unit when the block was indexed live
}

// Page is a page of history, newest first; Next is nil on the last page.
type Page struct {
	Items []Activity
	Next  *Cursor
}

// History returns up to limit entries of an address's history on a chain,
// newest first, before the cursor (nil: from the newest).
func (s *Store) History(ctx context.Context, tokens *Tokens, chainID uint64, addr common.Address, before *Cursor, limit int) (Page, error) {
	if limit <= 0 {
		return Page{}, fmt.Errorf("indexer: limit %d", limit)
	}
	args := []any{int64(chainID), addr.Bytes()}
	q := `SELECT a.block_number, a.tx_index, a.operation, t.hash, t.block_time, t.sender, t.recipient, t.nonce, t.failed
		FROM account_activity a
		JOIN chain_txs t ON t.chain_id = a.chain_id AND t.block_number = a.block_number AND t.tx_index = a.tx_index
		WHERE a.chain_id = ? AND a.address = ?`
	if before != nil {
		q += ` AND (a.block_number, a.tx_index) < (?, ?)`
		args = append(args, int64(before.Block), int64(before.Index))
	}
	q += ` ORDER BY a.block_number DESC, a.tx_index DESC LIMIT ?`
	args = append(args, limit+1)
	rows, err := s.db.Query(ctx, q, args...)
	if err != nil {
		return Page{}, err
	}
	var items []Activity
	for rows.Next() {
		var a Activity
		var block, index, when, nonce int64
		var hash, from, to []byte
		if err := rows.Scan(&block, &index, &a.Operation, &hash, &when, &from, &to, &nonce, &a.Failed); err != nil {
			rows.Close()
			return Page{}, err
		}
		a.Block, a.Index, a.Nonce = uint64(block), uint32(index), uint64(nonce)
		a.Hash = common.BytesToHash(hash)
		a.Time = time.Unix(when, 0).UTC()
		a.From = common.BytesToAddress(from)
		if to != nil {
			t := common.BytesToAddress(to)
			a.To = &t
		}
		items = append(items, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Page{}, err
	}
	var page Page
	if len(items) > limit {
		items = items[:limit]
		last := items[limit-1]
		page.Next = &Cursor{Block: last.Block, Index: last.Index}
	}
	page.Items = items
	if len(items) == 0 {
		return page, nil
	}
	if err := s.attachMovements(ctx, tokens, chainID, addr, items); err != nil {
		return Page{}, err
	}
	return page, nil
}

// attachMovements loads the address's movements of every item, with one
// query over the same index range as the page.
func (s *Store) attachMovements(ctx context.Context, tokens *Tokens, chainID uint64, addr common.Address, items []Activity) error {
	first, last := items[0], items[len(items)-1]
	rows, err := s.db.Query(ctx, `SELECT m.block_number, m.tx_index, m.kind, m.token, m.sender, m.recipient, m.amount, m.price
		FROM account_activity a
		JOIN chain_movements m ON m.chain_id = a.chain_id AND m.block_number = a.block_number AND m.tx_index = a.tx_index
		WHERE a.chain_id = ? AND a.address = ?
		AND (a.block_number, a.tx_index) <= (?, ?) AND (a.block_number, a.tx_index) >= (?, ?)
		AND (m.sender = ? OR (m.recipient = ? AND m.kind <> ?))
		ORDER BY m.block_number DESC, m.tx_index DESC, m.seq`,
		int64(chainID), addr.Bytes(), int64(first.Block), int64(first.Index), int64(last.Block), int64(last.Index),
		addr.Bytes(), addr.Bytes(), int64(KindApproval))
	if err != nil {
		return err
	}
	defer rows.Close()
	type key struct {
		block uint64
		index uint32
	}
	pos := make(map[key]int, len(items))
	for i, it := range items {
		pos[key{it.Block, it.Index}] = i
	}
	need := map[common.Address]int{}
	for rows.Next() {
		var block, index, kind int64
		var token, from, to []byte
		var amount string
		var price sql.NullFloat64
		if err := rows.Scan(&block, &index, &kind, &token, &from, &to, &amount, &price); err != nil {
			return err
		}
		i, ok := pos[key{uint64(block), uint32(index)}]
		if !ok {
			continue
		}
		m := Movement{Kind: Kind(kind), From: common.BytesToAddress(from), To: common.BytesToAddress(to)}
		m.Amount, ok = new(big.Int).SetString(amount, 10)
		if !ok {
			return fmt.Errorf("indexer: stored amount %q", amount)
		}
		if price.Valid {
			p := price.Float64
			m.Price = &p
		}
		if token != nil {
			a := common.BytesToAddress(token)
			m.Token = &Token{Address: a}
			std := 20
			if m.Kind == KindERC721 {
				std = 721
			}
			need[a] = std
		}
		items[i].Movements = append(items[i].Movements, m)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(need) == 0 {
		return nil
	}
	meta, err := tokens.Resolve(ctx, nil, chainID, need)
	if err != nil {
		return err
	}
	for i := range items {
		for j := range items[i].Movements {
			m := &items[i].Movements[j]
			if m.Token == nil {
				continue
			}
			if t, ok := meta[m.Token.Address]; ok {
				m.Token = &t
			} else {
				m.Token.Decimals = -1
			}
		}
	}
	return nil
}
