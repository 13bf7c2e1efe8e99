package bundler

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/store"
)

// Status is where an operation is in the bundler's life cycle.
type Status string

const (
	StatusPending   Status = "pending"   // accepted, waiting for a bundle
	StatusSubmitted Status = "submitted" // in a handleOps transaction not yet mined
	StatusIncluded  Status = "included"  // mined; Success says whether its call succeeded
	StatusFailed    Status = "failed"    // dropped: Reason says why (the EntryPoint's FailedOp)
	StatusReplaced  Status = "replaced"  // a higher-fee operation of the same sender and nonce took its place
)

// Record is one operation in the mempool.
type Record struct {
	Hash        common.Hash
	Network     string
	EntryPoint  common.Address
	ProjectID   string
	Op          *UserOperation
	Status      Status
	Reason      string
	TxHash      common.Hash
	BlockHash   common.Hash
	BlockNumber uint64
	// SeenBlock is the chain's head when the operation was accepted (a
	// throttled entity's operations stay THROTTLED_ENTITY_LIVE_BLOCKS).
	SeenBlock uint64
	CreatedAt time.Time
	UpdatedAt time.Time

	// validation is what the operation's validation returned when it was
	// accepted (nil: not known); static, that its traced validation read no
	// state that can change before its bundle (staticValidation).
	validation *validationResult
	static     bool
}

// ErrLive is Store.Add's answer when another live operation (pending or
// submitted) holds the sender and nonce.
var ErrLive = errors.New("bundler: an operation with this sender and nonce is already in the mempool")

// ErrTooManyPending is Store.Add's answer when the sender already has its
// limit of live operations.
var ErrTooManyPending = errors.New("bundler: the sender has too many operations in the mempool")

// Store keeps the mempool and the paymaster's records in latchd's database
// (SQLite or Postgres), so operations survive a restart. Every method is
// atomic; it is safe for concurrent use.
type Store struct {
	db *store.DB

	// sweepMu guards swept: when Reserve last released each network's
	// expired slots (sponsor_store.go).
	sweepMu sync.Mutex
	swept   map[string]time.Time
	// stmts holds the paymaster's hot statements, prepared once (query → *sql.Stmt).
	stmts sync.Map
	// writeMu queues the store's writes on SQLite (inTx, exec).
	writeMu sync.Mutex
}

// inTx runs fn in a write transaction. SQLite has one writer at a time: a
// transaction that finds the lock taken waits in SQLite's busy handler,
// which sleeps 1, 2, 5, … up to 100 ms between tries, so under concurrent
// sends and approvals most of a write's time was spent asleep after the
// lock was free again (and past the store's statement timeout, whole
// transactions failed). The store's own writers queue here instead and
// take the lock as soon as the previous one commits. Postgres runs them
// side by side, with its row and advisory locks.
func (s *Store) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	unlock := s.writeLock()
	defer unlock()
	return s.db.InTx(ctx, fn)
}

// exec runs one write statement (? placeholders), queued as inTx's are.
func (s *Store) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	unlock := s.writeLock()
	defer unlock()
	return s.db.Exec(ctx, query, args...)
}

func (s *Store) writeLock() (unlock func()) {
	if s.db.Dialect == store.Postgres {
		return func() {}
	}
	s.writeMu.Lock()
	return s.writeMu.Unlock
}

// NewStore returns the bundler store of db.
func NewStore(db *store.DB) *Store { return &Store{db: db} }

func hexLower(b []byte) string { return "0x" + fmt.Sprintf("%x", b) }

const opColumns = `hash, network, entry_point, project_id, op, status, reason, tx_hash, block_hash, block_number, seen_block, validation, static_validation, created_at, updated_at`

// Add stores rec as pending. With replaces set, that operation (the live one
// of the same sender and nonce, still pending) is marked replaced in the same
// transaction; if it is no longer pending, nothing is stored and ErrLive is
// returned. Without it, a live operation of the same sender and nonce makes
// Add return ErrLive, and with maxLive above 0, a sender that already has
// maxLive live operations on the network makes it return ErrTooManyPending
// (counted in the same transaction, so concurrent sends cannot pass it).
// The same transaction counts the operation as seen for the entities
// listed in seen (ERC-7562 reputation, reputation.go).
func (s *Store) Add(ctx context.Context, rec *Record, replaces *common.Hash, maxLive int, seen []common.Address) error {
	op, err := json.Marshal(rec.Op)
	if err != nil {
		return err
	}
	now := rec.CreatedAt.UnixMilli()
	sender := hexLower(rec.Op.Sender[:])
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if replaces == nil && maxLive > 0 {
			// SQLite's transactions take the write lock at BEGIN; Postgres
			// takes a lock on the sender so the count and the insert of two
			// sends cannot interleave.
			if s.db.Dialect == store.Postgres {
				if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 17))`, "bundler-sender:"+rec.Network+":"+sender); err != nil {
					return err
				}
			}
			var live int
			if err := tx.QueryRowContext(ctx, s.db.Rebind(`SELECT COUNT(*) FROM bundler_user_operations WHERE network = ? AND sender = ? AND status IN ('pending', 'submitted')`),
				rec.Network, sender).Scan(&live); err != nil {
				return err
			}
			if live >= maxLive {
				return ErrTooManyPending
			}
		}
		if replaces != nil {
			res, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE bundler_user_operations SET status = ?, updated_at = ? WHERE hash = ? AND status = ?`),
				string(StatusReplaced), now, hexLower(replaces[:]), string(StatusPending))
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n != 1 {
				return ErrLive
			}
		}
		static := 0
		if rec.static {
			static = 1
		}
		_, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO bundler_user_operations (hash, network, entry_point, project_id, sender, nonce, op, status, factory, paymaster, seen_block, validation, static_validation, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			hexLower(rec.Hash[:]), rec.Network, hexLower(rec.EntryPoint[:]), rec.ProjectID, sender, rec.Op.Nonce.String(),
			string(op), string(StatusPending), optionalAddress(rec.Op.Factory), optionalAddress(rec.Op.Paymaster), int64(rec.SeenBlock),
			formatValidation(rec.validation), static, now, now)
		if err != nil && isUniqueViolation(err) {
			return ErrLive
		}
		if err != nil {
			return err
		}
		return s.changeReputationTx(ctx, tx, rec.Network, seen, reputationChange{seen: 1}, rec.CreatedAt)
	})
}

// optionalAddress is a lowercase address, or ” for none.
func optionalAddress(a *common.Address) string {
	if a == nil {
		return ""
	}
	return hexLower(a[:])
}

// formatValidation and parseValidation store a validation's account and
// paymaster validationData as "account,paymaster" in decimal (empty for none).
func formatValidation(v *validationResult) string {
	if v == nil {
		return ""
	}
	return v.AccountValidationData.String() + "," + v.PaymasterValidationData.String()
}

func parseValidation(s string) *validationResult {
	acc, pm, ok := strings.Cut(s, ",")
	a, okA := new(big.Int).SetString(acc, 10)
	p, okP := new(big.Int).SetString(pm, 10)
	if !ok || !okA || !okP {
		return nil
	}
	return &validationResult{AccountValidationData: a, PaymasterValidationData: p}
}

// LiveReferencing counts the live (pending and submitted) operations on
// network whose sender, factory or paymaster is addr.
func (s *Store) LiveReferencing(ctx context.Context, network string, addr common.Address) (int, error) {
	a := hexLower(addr[:])
	var n int
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM bundler_user_operations WHERE network = ? AND status IN ('pending', 'submitted') AND (sender = ? OR factory = ? OR paymaster = ?)`,
		network, a, a, a).Scan(&n)
	return n, err
}

// isUniqueViolation recognises both drivers' unique-constraint errors.
func isUniqueViolation(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "SQLSTATE 23505") || strings.Contains(msg, "duplicate key")
}

// Get returns the operation of hash, or nil when there is none.
func (s *Store) Get(ctx context.Context, hash common.Hash) (*Record, error) {
	recs, err := s.query(ctx, `SELECT `+opColumns+` FROM bundler_user_operations WHERE hash = ?`, hexLower(hash[:]))
	if err != nil || len(recs) == 0 {
		return nil, err
	}
	return recs[0], nil
}

// bundled is where the operation of hash is, without the operation itself:
// its network, status and bundle transaction (found false: no such
// operation). eth_getUserOperationReceipt, which wallets poll until the
// operation is included, reads only these.
func (s *Store) bundled(ctx context.Context, hash common.Hash) (network string, status Status, txHash common.Hash, found bool, err error) {
	var st, tx string
	err = s.queryRow(ctx, `SELECT network, status, tx_hash FROM bundler_user_operations WHERE hash = ?`, hexLower(hash[:])).Scan(&network, &st, &tx)
	if store.IsNoRows(err) {
		return "", "", common.Hash{}, false, nil
	}
	if err != nil {
		return "", "", common.Hash{}, false, err
	}
	if tx != "" {
		txHash = common.HexToHash(tx)
	}
	return network, Status(st), txHash, true, nil
}

// LiveBySender returns the pending and submitted operations of sender on
// network, in nonce order.
func (s *Store) LiveBySender(ctx context.Context, network string, sender common.Address) ([]*Record, error) {
	recs, err := s.query(ctx, `SELECT `+opColumns+` FROM bundler_user_operations WHERE network = ? AND sender = ? AND status IN ('pending', 'submitted')`,
		network, hexLower(sender[:]))
	if err != nil {
		return nil, err
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Op.Nonce.Cmp(recs[j].Op.Nonce) < 0 })
	return recs, nil
}

// LiveNonce is one live operation's sender, nonce and hash.
type LiveNonce struct {
	Sender common.Address
	Nonce  *big.Int
	Hash   common.Hash
}

// LiveNonces returns the sender and nonce of every pending and submitted
// operation on network: the bundling loop bundles an operation only after
// every live one of its sender and nonce key with a lower nonce.
func (s *Store) LiveNonces(ctx context.Context, network string) ([]LiveNonce, error) {
	rows, err := s.db.Query(ctx, `SELECT sender, nonce, hash FROM bundler_user_operations WHERE network = ? AND status IN ('pending', 'submitted')`, network)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []LiveNonce
	for rows.Next() {
		var sender, nonce, hash string
		if err := rows.Scan(&sender, &nonce, &hash); err != nil {
			return nil, err
		}
		n, ok := new(big.Int).SetString(nonce, 10)
		if !ok {
			return nil, fmt.Errorf("bundler: stored nonce %q", nonce)
		}
		out = append(out, LiveNonce{Sender: common.HexToAddress(sender), Nonce: n, Hash: common.HexToHash(hash)})
	}
	return out, rows.Err()
}

// ByStatus returns up to limit operations of network with status, oldest first.
func (s *Store) ByStatus(ctx context.Context, network string, status Status, limit int) ([]*Record, error) {
	return s.query(ctx, `SELECT `+opColumns+` FROM bundler_user_operations WHERE network = ? AND status = ? ORDER BY created_at, hash LIMIT ?`,
		network, string(status), limit)
}

// MarkSubmitted moves pending operations into the handleOps transaction txHash.
func (s *Store) MarkSubmitted(ctx context.Context, hashes []common.Hash, txHash common.Hash, now time.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		for _, h := range hashes {
			if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE bundler_user_operations SET status = ?, tx_hash = ?, updated_at = ? WHERE hash = ? AND status = ?`),
				string(StatusSubmitted), hexLower(txHash[:]), now.UnixMilli(), hexLower(h[:]), string(StatusPending)); err != nil {
				return err
			}
		}
		return nil
	})
}

// MarkPending puts submitted operations back in the queue (their
// transaction was dropped or reverted).
func (s *Store) MarkPending(ctx context.Context, hashes []common.Hash, now time.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error { return s.markPendingTx(ctx, tx, hashes, now) })
}

func (s *Store) markPendingTx(ctx context.Context, tx *sql.Tx, hashes []common.Hash, now time.Time) error {
	for _, h := range hashes {
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE bundler_user_operations SET status = ?, tx_hash = '', updated_at = ? WHERE hash = ? AND status = ?`),
			string(StatusPending), now.UnixMilli(), hexLower(h[:]), string(StatusSubmitted)); err != nil {
			return err
		}
	}
	return nil
}

// MarkIncluded records that hash was mined in txHash at block.
func (s *Store) MarkIncluded(ctx context.Context, hash, txHash, blockHash common.Hash, block uint64, now time.Time) error {
	_, err := s.exec(ctx, `UPDATE bundler_user_operations SET status = ?, tx_hash = ?, block_hash = ?, block_number = ?, updated_at = ? WHERE hash = ?`,
		string(StatusIncluded), hexLower(txHash[:]), hexLower(blockHash[:]), block, now.UnixMilli(), hexLower(hash[:]))
	return err
}

// minedBundle is what a mined bundle of ours changes (recordBundle).
type minedBundle struct {
	tx, blockHash common.Hash
	block         uint64
	// included are the operations with their UserOperationEvent; back, the
	// others, queued again.
	included, back []common.Hash
	// counted are the rated entities of the included operations, each once
	// per operation (ERC-7562 opsIncluded).
	counted []common.Address
	// settlements are the operations the paymaster paid for (Settle).
	settlements []Settlement
}

// recordBundle records a mined bundle in one transaction: its included
// operations (MarkIncluded), the others back to pending (MarkPending), an
// inclusion counted for each entity of counted, and its sponsored
// operations settled as Settle does.
func (s *Store) recordBundle(ctx context.Context, network string, b minedBundle, now time.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if len(b.included) > 0 {
			st, err := tx.PrepareContext(ctx, s.db.Rebind(`UPDATE bundler_user_operations SET status = ?, tx_hash = ?, block_hash = ?, block_number = ?, updated_at = ? WHERE hash = ?`))
			if err != nil {
				return err
			}
			defer st.Close()
			for _, h := range b.included {
				if _, err := st.ExecContext(ctx, string(StatusIncluded), hexLower(b.tx[:]), hexLower(b.blockHash[:]), b.block, now.UnixMilli(), hexLower(h[:])); err != nil {
					return err
				}
			}
		}
		if err := s.markPendingTx(ctx, tx, b.back, now); err != nil {
			return err
		}
		if err := s.changeReputationTx(ctx, tx, network, b.counted, reputationChange{included: 1}, now); err != nil {
			return err
		}
		if len(b.settlements) == 0 {
			return nil
		}
		_, err := s.settleTx(ctx, tx, network, b.settlements, now)
		return err
	})
}

// MarkFailed drops a live operation with reason.
func (s *Store) MarkFailed(ctx context.Context, hash common.Hash, reason string, now time.Time) error {
	_, err := s.exec(ctx, `UPDATE bundler_user_operations SET status = ?, reason = ?, tx_hash = '', updated_at = ? WHERE hash = ? AND status IN ('pending', 'submitted')`,
		string(StatusFailed), reason, now.UnixMilli(), hexLower(hash[:]))
	return err
}

// prepared returns query prepared once on the database (see prepare),
// nil when preparing fails (the caller then runs it unprepared). Reads
// polled often (eth_getUserOperationReceipt, the mempool's queries) spend
// most of their time parsing the SQL otherwise.
func (s *Store) prepared(ctx context.Context, query string) *sql.Stmt {
	if err := s.prepare(ctx, query); err != nil {
		return nil
	}
	st, _ := s.stmts.Load(query)
	return st.(*sql.Stmt)
}

// queryRow runs a single-row read, prepared.
func (s *Store) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	if st := s.prepared(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return s.db.QueryRow(ctx, query, args...)
}

func (s *Store) query(ctx context.Context, q string, args ...any) ([]*Record, error) {
	var rows *sql.Rows
	var err error
	if st := s.prepared(ctx, q); st != nil {
		rows, err = st.QueryContext(ctx, args...)
	} else {
		rows, err = s.db.Query(ctx, q, args...)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Record
	for rows.Next() {
		var hash, ep, op, status, txHash, blockHash, validation string
		var created, updated int64
		var block, seen, static int64
		r := &Record{}
		if err := rows.Scan(&hash, &r.Network, &ep, &r.ProjectID, &op, &status, &r.Reason, &txHash, &blockHash, &block, &seen, &validation, &static, &created, &updated); err != nil {
			return nil, err
		}
		r.validation, r.static = parseValidation(validation), static == 1
		parsed, err := ParseUserOperation(json.RawMessage(op), false)
		if err != nil {
			return nil, fmt.Errorf("bundler: stored operation %s: %w", hash, err)
		}
		r.Hash, r.EntryPoint, r.Op, r.Status = common.HexToHash(hash), common.HexToAddress(ep), parsed, Status(status)
		if txHash != "" {
			r.TxHash = common.HexToHash(txHash)
		}
		if blockHash != "" {
			r.BlockHash = common.HexToHash(blockHash)
		}
		r.BlockNumber, r.SeenBlock = uint64(block), uint64(seen)
		r.CreatedAt, r.UpdatedAt = time.UnixMilli(created), time.UnixMilli(updated)
		out = append(out, r)
	}
	return out, rows.Err()
}
