package indexer

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/store"
)

// Store is the indexer's storage (tables of migration 002_account.sql), on
// SQLite or Postgres. Writes of one batch of blocks are one database
// transaction together with the chain's progress, so a crash or restart never
// leaves half a block or a gap: the indexer resumes at the first block whose
// data is not committed.
type Store struct {
	db *store.DB
}

// NewStore returns the indexer store on db.
func NewStore(db *store.DB) *Store { return &Store{db: db} }

// DB returns the underlying database.
func (s *Store) DB() *store.DB { return s.db }

// Progress returns the first block not yet indexed on a chain; ok is false
// when the chain was never indexed.
func (s *Store) Progress(ctx context.Context, chainID uint64) (next uint64, ok bool, err error) {
	var n int64
	err = s.db.QueryRow(ctx, `SELECT next_block FROM indexer_chains WHERE chain_id = ?`, int64(chainID)).Scan(&n)
	if store.IsNoRows(err) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return uint64(n), true, nil
}

// chainTables hold per-chain indexed data, deleted from a block on by
// rollback and entirely by Reset.
var chainTables = []string{"chain_txs", "chain_movements", "account_activity", "indexer_blocks"}

// Reset forgets everything indexed on a chain (a dev chain starts from
// genesis on every latchd start, so its old index describes a chain that is gone).
func (s *Store) Reset(ctx context.Context, chainID uint64) error {
	return s.db.InTx(ctx, func(tx *sql.Tx) error {
		for _, t := range append(chainTables, "account_tokens", "chain_tokens", "indexer_chains") {
			if _, err := tx.ExecContext(ctx, s.db.Rebind(`DELETE FROM `+t+` WHERE chain_id = ?`), int64(chainID)); err != nil {
				return fmt.Errorf("reset %s: %w", t, err)
			}
		}
		return nil
	})
}

// blockHashes returns the stored hashes of blocks from..to (those kept).
func (s *Store) blockHashes(ctx context.Context, chainID, from, to uint64) (map[uint64]common.Hash, error) {
	rows, err := s.db.Query(ctx, `SELECT number, hash FROM indexer_blocks WHERE chain_id = ? AND number >= ? AND number <= ?`, int64(chainID), int64(from), int64(to))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[uint64]common.Hash{}
	for rows.Next() {
		var n int64
		var h []byte
		if err := rows.Scan(&n, &h); err != nil {
			return nil, err
		}
		out[uint64(n)] = common.BytesToHash(h)
	}
	return out, rows.Err()
}

// oldestBlock returns the lowest block whose hash is kept, or ok false.
func (s *Store) oldestBlock(ctx context.Context, chainID uint64) (uint64, bool, error) {
	var n sql.NullInt64
	if err := s.db.QueryRow(ctx, `SELECT MIN(number) FROM indexer_blocks WHERE chain_id = ?`, int64(chainID)).Scan(&n); err != nil {
		return 0, false, err
	}
	return uint64(n.Int64), n.Valid, nil
}

// save stores decoded blocks (consecutive, starting at the chain's next
// block) and moves the chain's progress past them, in one transaction. It
// keeps the hashes of the last window blocks for reorg detection.
func (s *Store) save(ctx context.Context, chainID uint64, blocks []blockRecord, window uint64) error {
	if len(blocks) == 0 {
		return nil
	}
	chain := int64(chainID)
	var txRows, moveRows, actRows, tokRows, blockRows [][]any
	for _, b := range blocks {
		blockRows = append(blockRows, []any{chain, int64(b.Number), b.Hash.Bytes(), b.ParentHash.Bytes()})
		for _, t := range b.Txs {
			var to []byte
			if t.To != nil {
				to = t.To.Bytes()
			}
			txRows = append(txRows, []any{chain, int64(t.Block), int64(t.Index), t.Hash.Bytes(), int64(t.Time), t.From.Bytes(), to, clampInt64(t.Nonce), t.Value.String(), t.Failed})
			for _, m := range t.Movements {
				var token []byte
				if m.Token != nil {
					token = m.Token.Bytes()
				}
				var price any
				if m.Price != nil {
					price = *m.Price
				}
				moveRows = append(moveRows, []any{chain, int64(t.Block), int64(t.Index), int64(m.Seq), int64(m.Kind), token, m.From.Bytes(), m.To.Bytes(), m.Amount.String(), price})
				if m.Token != nil && m.Kind == KindERC20 && m.To != (common.Address{}) && m.To != *m.Token {
					tokRows = append(tokRows, []any{chain, m.To.Bytes(), token})
				}
			}
			for addr, op := range t.Parties {
				actRows = append(actRows, []any{chain, addr.Bytes(), int64(t.Block), int64(t.Index), op})
			}
		}
	}
	last := blocks[len(blocks)-1].Number
	return s.db.InTx(ctx, func(tx *sql.Tx) error {
		// Progress first: on Postgres the row lock serialises two writers of
		// one chain (a second node that took over), and the check below
		// refuses a batch that no longer follows what is stored.
		var next int64
		err := tx.QueryRowContext(ctx, s.db.Rebind(`SELECT next_block FROM indexer_chains WHERE chain_id = ?`+s.forUpdate()), chain).Scan(&next)
		switch {
		case store.IsNoRows(err):
			next = int64(blocks[0].Number)
			if _, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO indexer_chains (chain_id, next_block, updated_at) VALUES (?, ?, ?)`), chain, next, time.Now().Unix()); err != nil {
				return err
			}
		case err != nil:
			return err
		}
		if uint64(next) != uint64(blocks[0].Number) {
			return fmt.Errorf("%w: batch starts at %d, store expects %d", errOutOfStep, uint64(blocks[0].Number), next)
		}
		inserts := []struct {
			table, cols string
			rows        [][]any
		}{
			{"indexer_blocks", "chain_id, number, hash, parent_hash", blockRows},
			{"chain_txs", "chain_id, block_number, tx_index, hash, block_time, sender, recipient, nonce, value, failed", txRows},
			{"chain_movements", "chain_id, block_number, tx_index, seq, kind, token, sender, recipient, amount, price", moveRows},
			{"account_activity", "chain_id, address, block_number, tx_index, operation", actRows},
			{"account_tokens", "chain_id, address, token", tokRows},
		}
		for _, in := range inserts {
			if err := s.insert(ctx, tx, in.table, in.cols, in.rows); err != nil {
				return fmt.Errorf("insert %s: %w", in.table, err)
			}
		}
		if uint64(last) >= window {
			if _, err := tx.ExecContext(ctx, s.db.Rebind(`DELETE FROM indexer_blocks WHERE chain_id = ? AND number < ?`), chain, int64(uint64(last)-window)); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, s.db.Rebind(`UPDATE indexer_chains SET next_block = ?, updated_at = ? WHERE chain_id = ?`), int64(last)+1, time.Now().Unix(), chain)
		return err
	})
}

// errOutOfStep: the stored progress moved under the indexer (another writer).
var errOutOfStep = fmt.Errorf("indexer: store out of step")

func (s *Store) forUpdate() string {
	if s.db.Dialect == store.Postgres {
		return " FOR UPDATE"
	}
	return "" // SQLite transactions take the write lock up front (_txlock=immediate)
}

// maxInsertParams keeps one multi-row INSERT under both databases' parameter limits.
const maxInsertParams = 4000

// insert adds rows with multi-row INSERTs, ignoring rows already present
// (re-indexing after a restart between commit and progress cannot happen,
// since both are one transaction, but a row never fails a batch twice).
func (s *Store) insert(ctx context.Context, tx *sql.Tx, table, cols string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	n := len(rows[0])
	per := max(1, maxInsertParams/n)
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", n), ", ") + ")"
	for len(rows) > 0 {
		chunk := rows[:min(per, len(rows))]
		rows = rows[len(chunk):]
		var b strings.Builder
		b.WriteString("INSERT INTO " + table + " (" + cols + ") VALUES ")
		args := make([]any, 0, len(chunk)*n)
		for i, r := range chunk {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(one)
			args = append(args, r...)
		}
		b.WriteString(" ON CONFLICT DO NOTHING")
		if _, err := tx.ExecContext(ctx, s.db.Rebind(b.String()), args...); err != nil {
			return err
		}
	}
	return nil
}

// rollback deletes everything indexed from block from on and sets the
// chain's progress back to it, in one transaction.
func (s *Store) rollback(ctx context.Context, chainID, from uint64) error {
	return s.db.InTx(ctx, func(tx *sql.Tx) error {
		for _, t := range chainTables {
			col := "block_number"
			if t == "indexer_blocks" {
				col = "number"
			}
			if _, err := tx.ExecContext(ctx, s.db.Rebind(`DELETE FROM `+t+` WHERE chain_id = ? AND `+col+` >= ?`), int64(chainID), int64(from)); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE indexer_chains SET next_block = ?, updated_at = ? WHERE chain_id = ?`), int64(from), time.Now().Unix(), int64(chainID))
		return err
	})
}

// tokens returns stored metadata of the given contracts (those stored).
func (s *Store) tokens(ctx context.Context, chainID uint64, addrs []common.Address) (map[common.Address]Token, error) {
	out := map[common.Address]Token{}
	for len(addrs) > 0 {
		chunk := addrs[:min(len(addrs), 500)]
		addrs = addrs[len(chunk):]
		args := []any{int64(chainID)}
		for _, a := range chunk {
			args = append(args, a.Bytes())
		}
		rows, err := s.db.Query(ctx, `SELECT address, standard, name, symbol, decimals FROM chain_tokens WHERE chain_id = ? AND address IN (`+placeholders(len(chunk))+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var addr []byte
			var t Token
			var standard, decimals int64
			if err := rows.Scan(&addr, &standard, &t.Name, &t.Symbol, &decimals); err != nil {
				rows.Close()
				return nil, err
			}
			t.Address = common.BytesToAddress(addr)
			t.Standard, t.Decimals = int(standard), int(decimals)
			out[t.Address] = t
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// saveTokens stores metadata read from contracts.
func (s *Store) saveTokens(ctx context.Context, chainID uint64, tokens []Token) error {
	if len(tokens) == 0 {
		return nil
	}
	rows := make([][]any, len(tokens))
	for i, t := range tokens {
		rows[i] = []any{int64(chainID), t.Address.Bytes(), int64(t.Standard), t.Name, t.Symbol, int64(t.Decimals)}
	}
	return s.db.InTx(ctx, func(tx *sql.Tx) error {
		return s.insert(ctx, tx, "chain_tokens", "chain_id, address, standard, name, symbol, decimals", rows)
	})
}

// AccountTokens returns the ERC-20 contracts the indexer saw address receive on a chain.
func (s *Store) AccountTokens(ctx context.Context, chainID uint64, addr common.Address) ([]common.Address, error) {
	rows, err := s.db.Query(ctx, `SELECT token FROM account_tokens WHERE chain_id = ? AND address = ? LIMIT 200`, int64(chainID), addr.Bytes())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []common.Address
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return nil, err
		}
		out = append(out, common.BytesToAddress(b))
	}
	return out, rows.Err()
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

func clampInt64(v uint64) int64 {
	if v > 1<<63-1 {
		return 1<<63 - 1
	}
	return int64(v)
}
