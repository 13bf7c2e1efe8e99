package bundler

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/jsonrpc"
	"github.com/latchkit/latch/internal/store"
)

// ERC-7562's reputation: per entity (sender, factory, paymaster) the
// bundler counts opsSeen (operations accepted into its mempool) and
// opsIncluded (of those, the ones a bundle included, from their
// UserOperationEvent); both decay every hour to 23/24 of themselves. With
// maxSeen = opsSeen / MIN_INCLUSION_RATE_DENOMINATOR, an entity is banned
// when maxSeen > opsIncluded + BAN_SLACK, throttled when maxSeen >
// opsIncluded + THROTTLING_SLACK, OK otherwise; a new one is OK.
//
// A banned entity's operations are refused and dropped from the mempool
// (GREP-010); a throttled one may have THROTTLED_ENTITY_MEMPOOL_COUNT
// operations in the mempool, THROTTLED_ENTITY_BUNDLE_COUNT in a bundle,
// each for THROTTLED_ENTITY_LIVE_BLOCKS blocks (GREP-020). An entity whose
// operation breaks a validation rule when validated again before bundling
// (having passed the rules when accepted: ERC-7562 asks to degrade it), or
// a paymaster or staked entity whose operation fails in the bundle after
// passing that validation (GREP-040), gets opsSeen = BAN_OPS_SEEN_PENALTY
// and opsIncluded = 0: banned for 69 hours. A paymaster is not charged for
// its operation's account or factory failing (EREP-015), and a staked
// factory answers for the accounts it deploys (EREP-020).
//
// The network's own factory and paymaster (NetworkConfig.Factory and
// Paymaster, latchd's contracts) are not rated: their behaviour is the
// operator's. ERC-7562 rates only staked entities and unstaked
// paymasters, since unstaked senders and factories cost nothing to
// replace; this bundler rates them all, which costs an honest one nothing
// (its operations are included) and bounds what a replaced one can do.
// Counts live in latchd's database, shared by the nodes of a network and
// kept across restarts.
const (
	minInclusionRateDenominator = 10 // the bundler's value (100 is a client's)
	throttlingSlack             = 10
	banSlack                    = 50
	banOpsSeenPenalty           = 10_000
	throttledEntityMempoolCount = 4
	throttledEntityBundleCount  = 4
	throttledEntityLiveBlocks   = 10
)

// ReputationStatus is an entity's standing.
type ReputationStatus string

// Reputation statuses, as debug_bundler_dumpReputation names them.
const (
	ReputationOK        ReputationStatus = "ok"
	ReputationThrottled ReputationStatus = "throttled"
	ReputationBanned    ReputationStatus = "banned"
)

// Reputation is one entity's counts, decayed to the hour asked for.
type Reputation struct {
	Address     common.Address
	OpsSeen     uint64
	OpsIncluded uint64
}

// Status is ERC-7562's reputation calculation.
func (r Reputation) Status() ReputationStatus {
	maxSeen := r.OpsSeen / minInclusionRateDenominator
	switch {
	case maxSeen > r.OpsIncluded+banSlack:
		return ReputationBanned
	case maxSeen > r.OpsIncluded+throttlingSlack:
		return ReputationThrottled
	}
	return ReputationOK
}

// decay applies the hourly value = value * 23 / 24 once per hour boundary
// crossed since the hour the counts were last decayed to: the same numbers
// an hourly job would leave, worked out when the row is next touched.
func decay(v uint64, hours int64) uint64 {
	for ; hours > 0 && v > 0; hours-- {
		v = v * 23 / 24
	}
	return v
}

// unixHour is t's hour since the Unix epoch: decay happens at each boundary.
func unixHour(t time.Time) int64 { return t.Unix() / 3600 }

// Reputations returns the decayed counts of addrs on network at now; an
// address without a row is absent (a new entity: OK).
func (s *Store) Reputations(ctx context.Context, network string, addrs []common.Address, now time.Time) (map[common.Address]Reputation, error) {
	out := map[common.Address]Reputation{}
	if len(addrs) == 0 {
		return out, nil
	}
	args := []any{network}
	marks := make([]string, len(addrs))
	for i, a := range addrs {
		args = append(args, hexLower(a[:]))
		marks[i] = "?"
	}
	rows, err := s.db.Query(ctx, `SELECT address, ops_seen, ops_included, decayed_hour FROM bundler_reputation WHERE network = ? AND address IN (`+strings.Join(marks, ", ")+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	hour := unixHour(now)
	for rows.Next() {
		var addr string
		var seen, included, at int64
		if err := rows.Scan(&addr, &seen, &included, &at); err != nil {
			return nil, err
		}
		a := common.HexToAddress(addr)
		out[a] = Reputation{Address: a, OpsSeen: decay(uint64(seen), hour-at), OpsIncluded: decay(uint64(included), hour-at)}
	}
	return out, rows.Err()
}

// reputationChange is what happens to one entity's counts.
type reputationChange struct {
	seen, included int64 // added (seen may be -1: EREP-015), floored at 0
	penalty        bool  // GREP-040: opsSeen = BAN_OPS_SEEN_PENALTY, opsIncluded = 0
}

// changeReputation decays the counts of the addresses listed to now's
// hour and applies ch to each, once per time it is listed, in one
// transaction (a node's increments never lose another's).
func (s *Store) changeReputation(ctx context.Context, network string, list []common.Address, ch reputationChange, now time.Time) error {
	if len(list) == 0 {
		return nil
	}
	return s.inTx(ctx, func(tx *sql.Tx) error { return s.changeReputationTx(ctx, tx, network, list, ch, now) })
}

// changeReputationTx is changeReputation in tx. Rows are locked in address
// order, so two transactions never wait for each other's rows.
func (s *Store) changeReputationTx(ctx context.Context, tx *sql.Tx, network string, list []common.Address, ch reputationChange, now time.Time) error {
	times := map[common.Address]int64{}
	var addrs []common.Address
	for _, a := range list {
		if times[a] == 0 {
			addrs = append(addrs, a)
		}
		times[a]++
	}
	sort.Slice(addrs, func(i, j int) bool { return bytes.Compare(addrs[i][:], addrs[j][:]) < 0 })
	hour := unixHour(now)
	sel := `SELECT ops_seen, ops_included, decayed_hour FROM bundler_reputation WHERE network = ? AND address = ?`
	if s.db.Dialect == store.Postgres {
		sel += ` FOR UPDATE` // SQLite's transactions hold the write lock from BEGIN
	}
	for _, a := range addrs {
		addr, k := hexLower(a[:]), times[a]
		if !ch.penalty && ch.seen >= 0 && ch.included >= 0 {
			// The common case in one statement: a new row, or one already
			// decayed to this hour, counts up; others take the long way.
			res, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO bundler_reputation (network, address, ops_seen, ops_included, decayed_hour) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (network, address) DO UPDATE SET ops_seen = bundler_reputation.ops_seen + excluded.ops_seen, ops_included = bundler_reputation.ops_included + excluded.ops_included
				WHERE bundler_reputation.decayed_hour = excluded.decayed_hour`), network, addr, k*ch.seen, k*ch.included, hour)
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			if n == 1 {
				continue
			}
		}
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO bundler_reputation (network, address, ops_seen, ops_included, decayed_hour) VALUES (?, ?, 0, 0, ?) ON CONFLICT (network, address) DO NOTHING`),
			network, addr, hour); err != nil {
			return err
		}
		var seen, included, at int64
		if err := tx.QueryRowContext(ctx, s.db.Rebind(sel), network, addr).Scan(&seen, &included, &at); err != nil {
			return err
		}
		seen, included = int64(decay(uint64(seen), hour-at)), int64(decay(uint64(included), hour-at))
		if ch.penalty {
			seen, included = banOpsSeenPenalty, 0
		}
		seen, included = max(seen+k*ch.seen, 0), max(included+k*ch.included, 0)
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE bundler_reputation SET ops_seen = ?, ops_included = ?, decayed_hour = ? WHERE network = ? AND address = ?`),
			seen, included, hour, network, addr); err != nil {
			return err
		}
	}
	return nil
}

// SetReputation overwrites addr's counts (operators and tests: ERC-7769's
// debug_bundler_setReputation).
func (s *Store) SetReputation(ctx context.Context, network string, r Reputation, now time.Time) error {
	_, err := s.exec(ctx, `INSERT INTO bundler_reputation (network, address, ops_seen, ops_included, decayed_hour) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (network, address) DO UPDATE SET ops_seen = excluded.ops_seen, ops_included = excluded.ops_included, decayed_hour = excluded.decayed_hour`,
		network, hexLower(r.Address[:]), int64(r.OpsSeen), int64(r.OpsIncluded), unixHour(now))
	return err
}

// Entity kinds, as ERC-7769's error data names them.
const (
	kindSender    = "sender"
	kindFactory   = "factory"
	kindPaymaster = "paymaster"
)

// entityRef is one rated entity of an operation.
type entityRef struct {
	kind string
	addr common.Address
}

// rated lists op's entities the bundler rates: its sender, and its
// factory and paymaster unless they are the network's own.
func (n *netState) rated(op *UserOperation) []entityRef {
	out := []entityRef{{kindSender, op.Sender}}
	if op.Factory != nil && *op.Factory != n.Factory {
		out = append(out, entityRef{kindFactory, *op.Factory})
	}
	if op.Paymaster != nil && (n.Paymaster == common.Address{} || *op.Paymaster != n.Paymaster) {
		out = append(out, entityRef{kindPaymaster, *op.Paymaster})
	}
	return out
}

func addrsOf(refs []entityRef) []common.Address {
	out := make([]common.Address, len(refs))
	for i, r := range refs {
		out[i] = r.addr
	}
	return out
}

// CodeReputation is ERC-7769's code for an entity throttled or banned by
// ERC-7562's reputation rules.
const CodeReputation = -32504

func reputationError(e entityRef, format string, args ...any) *jsonrpc.Error {
	data, _ := json.Marshal(map[string]string{e.kind: e.addr.Hex()})
	return &jsonrpc.Error{Code: CodeReputation, Message: fmt.Sprintf(format, args...), Data: data}
}

// checkReputation refuses op when one of its entities is banned, or is
// throttled and already has THROTTLED_ENTITY_MEMPOOL_COUNT operations in
// the mempool (replaced, the live one it replaces is not counted).
func (n *netState) checkReputation(ctx context.Context, op *UserOperation, replacing bool) *jsonrpc.Error {
	refs := n.rated(op)
	reps, err := n.svc.cfg.Store.Reputations(ctx, n.Network, addrsOf(refs), n.svc.cfg.Now())
	if err != nil {
		n.svc.cfg.Logger.ErrorContext(ctx, "bundler: read reputation", "err", err)
		return errInternal
	}
	for _, e := range refs {
		r := reps[e.addr]
		switch r.Status() {
		case ReputationBanned:
			return reputationError(e, "%s %s is banned by this bundler's ERC-7562 reputation rules (%d operations seen, %d included); its operations are refused for now",
				e.kind, e.addr.Hex(), r.OpsSeen, r.OpsIncluded)
		case ReputationThrottled:
			live, err := n.svc.cfg.Store.LiveReferencing(ctx, n.Network, e.addr)
			if err != nil {
				n.svc.cfg.Logger.ErrorContext(ctx, "bundler: read mempool", "err", err)
				return errInternal
			}
			if replacing {
				live--
			}
			if live >= throttledEntityMempoolCount {
				return reputationError(e, "%s %s is throttled by this bundler's ERC-7562 reputation rules (%d operations seen, %d included) and has %d operations in the mempool, the most a throttled entity may; send again once one is included",
					e.kind, e.addr.Hex(), r.OpsSeen, r.OpsIncluded, live)
			}
		}
	}
	return nil
}

// reputationChanged applies ch to entities, logging a failure: the counts
// are the bundler's own bookkeeping and must not fail what caused them.
func (n *netState) reputationChanged(ctx context.Context, entities []common.Address, ch reputationChange) {
	if err := n.svc.cfg.Store.changeReputation(ctx, n.Network, entities, ch, n.svc.cfg.Now()); err != nil && !errors.Is(err, context.Canceled) {
		n.svc.cfg.Logger.WarnContext(ctx, "bundler: update reputation", "network", n.Network, "err", err)
	}
}

// blame names the entity answerable for op failing with the EntryPoint's
// reason (AA1x: the factory, AA2x: the account, or its staked factory
// (EREP-020), AA3x: the paymaster), or the phase that broke a rule; nil
// when it is one the bundler does not rate.
func (n *netState) blame(ctx context.Context, op *UserOperation, reason, phase string) *entityRef {
	kind := kindSender
	switch {
	case phase == entityFactory || strings.HasPrefix(reason, "AA1"):
		kind = kindFactory
	case phase == entityPaymaster || strings.HasPrefix(reason, "AA3"):
		kind = kindPaymaster
	case op.Factory != nil && *op.Factory != n.Factory && n.stakedEntity(ctx, *op.Factory):
		kind = kindFactory
	}
	for _, e := range n.rated(op) {
		if e.kind == kind {
			return &e
		}
	}
	return nil
}
