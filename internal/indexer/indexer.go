// Package indexer follows EVM chains block by block and records, per
// address, what each transaction did: native transfers (the transaction
// value), ERC-20 Transfer and Approval logs, ERC-721 transfers, contract calls
// and failed transactions, with the block time and an operation type (send,
// receive, trade, approve, execute, mint, burn, deposit, withdraw). History is
// read back newest first with keyset paging (History).
//
// Guarantees: a batch of blocks is stored in one database transaction with
// the chain's progress, so after a restart indexing resumes exactly after the
// last stored block (no gap, no duplicate); an upstream failure is retried
// with backoff without moving on; a reorg is detected by parent hash against
// the hashes of the last ReorgWindow blocks, and the replaced blocks are
// deleted and indexed again from the new chain.
package indexer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/evm"
)

// ReorgWindow is how many recent block hashes the indexer keeps per chain to
// find where a reorg forked; deeper reorgs re-index the whole window.
const ReorgWindow = 128

// Batch sizes: blocks fetched per upstream batch while catching up.
const (
	DefaultBatchSize = 25
	maxBatchSize     = 500
)

// Backoff after an upstream or storage failure.
const (
	minBackoff = 250 * time.Millisecond
	maxBackoff = 30 * time.Second
)

// liveWindow: blocks younger than this when indexed are priced (the price
// then is the price at the time of the transfer, near enough); older blocks
// (a backfill) carry no price rather than today's.
const liveWindow = 10 * time.Minute

// PriceFunc returns the USD price of one whole unit of a token (nil: the
// native coin) on a chain, or ok false when no price is known.
type PriceFunc func(ctx context.Context, chainID uint64, token *common.Address) (usd float64, ok bool)

// Config configures an Indexer.
type Config struct {
	Store  *Store
	Tokens *Tokens
	// Price prices the transfers of blocks indexed live; nil records none.
	Price  PriceFunc
	Logger *slog.Logger
	// Now is the clock (tests set it).
	Now func() time.Time
	// Lock, when set, is taken before a chain is followed and held until it
	// stops, so that of several latchd nodes sharing a database one indexes
	// each chain. It blocks until the lock is held or ctx ends.
	Lock func(ctx context.Context, chainID uint64) (release func(), err error)
}

// Chain is a network to follow.
type Chain struct {
	ChainID uint64
	Client  *evm.Client
	// Start is the first block to index when the chain has no progress
	// stored; StartAtHead starts at the head block instead.
	Start       uint64
	StartAtHead bool
	// Confirmations is how far behind the head the indexer stays (0: index
	// the head block at once).
	Confirmations uint64
	// PollInterval is how often the head is asked for; Wake, when set,
	// signals a new head sooner.
	PollInterval time.Duration
	Wake         <-chan struct{}
	// BatchSize is the number of blocks fetched per batch while catching up.
	BatchSize int
}

// Indexer follows chains. Its methods are safe for concurrent use.
type Indexer struct {
	cfg Config

	mu     sync.Mutex
	chains map[uint64]*follower
	wg     sync.WaitGroup
	cancel context.CancelFunc
	ctx    context.Context
}

// New returns an Indexer; Follow starts chains.
func New(cfg Config) *Indexer {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Indexer{cfg: cfg, chains: map[uint64]*follower{}, ctx: ctx, cancel: cancel}
}

// Follow starts following a chain in the background. Errors: a chain
// followed twice, or a missing client.
func (ix *Indexer) Follow(c Chain) error {
	if c.Client == nil {
		return fmt.Errorf("indexer: chain %d has no client", c.ChainID)
	}
	if c.PollInterval <= 0 {
		c.PollInterval = 2 * time.Second
	}
	if c.BatchSize <= 0 {
		c.BatchSize = DefaultBatchSize
	}
	c.BatchSize = min(c.BatchSize, maxBatchSize)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if _, dup := ix.chains[c.ChainID]; dup {
		return fmt.Errorf("indexer: chain %d followed twice", c.ChainID)
	}
	f := &follower{ix: ix, c: c, log: ix.cfg.Logger.With("chain_id", c.ChainID), changed: make(chan struct{})}
	ix.chains[c.ChainID] = f
	ix.wg.Go(func() { f.run(ix.ctx) })
	return nil
}

// Follows reports whether the chain is followed.
func (ix *Indexer) Follows(chainID uint64) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.chains[chainID] != nil
}

// Client returns the client of a followed chain, or nil.
func (ix *Indexer) Client(chainID uint64) *evm.Client {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if f := ix.chains[chainID]; f != nil {
		return f.c.Client
	}
	return nil
}

// WaitIndexed waits until block (and every block before it) of a followed
// chain is stored, or ctx ends.
func (ix *Indexer) WaitIndexed(ctx context.Context, chainID, block uint64) error {
	ix.mu.Lock()
	f := ix.chains[chainID]
	ix.mu.Unlock()
	if f == nil {
		return errUnknownChain
	}
	for {
		next, changed := f.progress()
		if next > block {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("chain %d: block %d not indexed (next %d): %w", chainID, block, next, ctx.Err())
		}
	}
}

// Close stops every chain and waits for the followers to return.
func (ix *Indexer) Close() {
	ix.cancel()
	ix.wg.Wait()
}

// follower indexes one chain.
type follower struct {
	ix  *Indexer
	c   Chain
	log *slog.Logger

	perTxReceipts bool // the upstream lacks eth_getBlockReceipts

	mu      sync.Mutex
	next    uint64 // first block not stored
	changed chan struct{}
}

func (f *follower) progress() (uint64, <-chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.next, f.changed
}

func (f *follower) setNext(n uint64) {
	f.mu.Lock()
	f.next = n
	close(f.changed)
	f.changed = make(chan struct{})
	f.mu.Unlock()
}

func (f *follower) run(ctx context.Context) {
	if lock := f.ix.cfg.Lock; lock != nil {
		release, err := lock(ctx, f.c.ChainID)
		if err != nil {
			if ctx.Err() == nil {
				f.log.Error("indexer: lock", "err", err)
			}
			return
		}
		defer release()
	}
	backoff := time.Duration(0)
	failures := 0
	started := false
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		var progressed bool
		var err error
		if !started {
			err = f.begin(ctx)
			started = err == nil
			progressed = started
		} else {
			progressed, err = f.step(ctx)
		}
		if ctx.Err() != nil {
			return
		}
		wait := f.c.PollInterval
		switch {
		case err != nil:
			failures++
			backoff = min(max(2*backoff, minBackoff), maxBackoff)
			wait = backoff
			// The first failure and then every tenth: an upstream outage
			// must not flood the log.
			if failures == 1 || failures%10 == 0 {
				f.log.Warn("indexer: will retry", "err", err, "failures", failures, "retry_in", backoff)
			}
		case progressed:
			if failures > 0 {
				f.log.Info("indexer: recovered", "failures", failures)
			}
			failures, backoff = 0, 0
			continue // more may be ready; ask again at once
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		case <-f.c.Wake:
			if err != nil {
				// Still back off after a failure, whatever wakes us.
				select {
				case <-ctx.Done():
					return
				case <-timer.C:
				}
			}
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// begin reads where the chain's index stands, or where it starts.
func (f *follower) begin(ctx context.Context) error {
	next, ok, err := f.ix.cfg.Store.Progress(ctx, f.c.ChainID)
	if err != nil {
		return err
	}
	if !ok {
		next = f.c.Start
		if f.c.StartAtHead {
			h, err := f.c.Client.Header(ctx, 0, true)
			if err != nil {
				return err
			}
			next = uint64(h.Number)
		}
	}
	f.setNext(next)
	f.log.Info("indexer: following", "next_block", next, "resumed", ok)
	return nil
}

// step indexes the next batch of blocks, or checks the indexed head for a
// reorg when nothing is new. It reports whether it changed anything.
func (f *follower) step(ctx context.Context) (bool, error) {
	head, err := f.c.Client.Header(ctx, 0, true)
	if err != nil {
		return false, fmt.Errorf("head: %w", err)
	}
	next, _ := f.progress()
	if uint64(head.Number) < f.c.Confirmations {
		return false, nil
	}
	target := uint64(head.Number) - f.c.Confirmations
	if next > target {
		if next == 0 {
			return false, nil
		}
		// Nothing new to index: make sure what we indexed last is still the
		// chain (a reorg to a chain of the same or lower height shows here).
		n := min(next-1, uint64(head.Number))
		hash := head.Hash
		if n != uint64(head.Number) {
			h, err := f.c.Client.Header(ctx, n, false)
			if err != nil {
				return false, fmt.Errorf("header %d: %w", n, err)
			}
			hash = h.Hash
		}
		stored, err := f.ix.cfg.Store.blockHashes(ctx, f.c.ChainID, n, n)
		if err != nil {
			return false, err
		}
		if s, ok := stored[n]; (ok && s != hash) || n < next-1 {
			// Our last block was replaced, or the chain is now shorter than
			// what we indexed.
			return true, f.reorg(ctx, n)
		}
		return false, nil
	}

	to := target
	if to-next+1 > uint64(f.c.BatchSize) {
		to = next + uint64(f.c.BatchSize) - 1
	}
	blocks, err := f.c.Client.Blocks(ctx, next, to, f.perTxReceipts)
	if errors.Is(err, evm.ErrNoBlockReceipts) {
		f.perTxReceipts = true
		f.log.Info("indexer: upstream lacks eth_getBlockReceipts; reading receipts per transaction")
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("blocks %d-%d: %w", next, to, err)
	}
	if next > 0 {
		stored, err := f.ix.cfg.Store.blockHashes(ctx, f.c.ChainID, next-1, next-1)
		if err != nil {
			return false, err
		}
		if s, ok := stored[next-1]; ok && s != blocks[0].ParentHash {
			return true, f.reorg(ctx, next-1)
		}
	}
	for i := 1; i < len(blocks); i++ {
		if blocks[i].ParentHash != blocks[i-1].Hash {
			// The chain changed while we read it; read again.
			return false, fmt.Errorf("blocks %d-%d: chain reorganised during the read", next, to)
		}
	}

	kinds := chainKinds{f.ix.cfg.Tokens, f.c.ChainID}
	records := make([]blockRecord, len(blocks))
	want := map[common.Address]int{}
	for i := range blocks {
		records[i] = decodeBlock(&blocks[i], kinds)
		for _, t := range records[i].Txs {
			for _, m := range t.Movements {
				if m.Token != nil {
					if m.Kind == KindERC721 {
						want[*m.Token] = 721
					} else if _, seen := want[*m.Token]; !seen {
						want[*m.Token] = 20
					}
				}
			}
		}
	}
	if len(want) > 0 {
		if _, err := f.ix.cfg.Tokens.Resolve(ctx, f.c.Client, f.c.ChainID, want); err != nil {
			return false, fmt.Errorf("token metadata: %w", err)
		}
	}
	f.price(ctx, records)
	if err := f.ix.cfg.Store.save(ctx, f.c.ChainID, records, ReorgWindow); err != nil {
		if errors.Is(err, errOutOfStep) {
			// Someone else moved the chain's progress; start over from it.
			return false, errors.Join(err, f.begin(ctx))
		}
		return false, fmt.Errorf("store blocks %d-%d: %w", next, to, err)
	}
	f.setNext(to + 1)
	return true, nil
}

// price sets the price of every movement of blocks young enough to count
// as live.
func (f *follower) price(ctx context.Context, records []blockRecord) {
	if f.ix.cfg.Price == nil {
		return
	}
	now := f.ix.cfg.Now()
	prices := map[common.Address]*float64{} // zero address: the native coin
	for i := range records {
		if now.Sub(time.Unix(int64(records[i].Time), 0)) > liveWindow {
			continue
		}
		for j := range records[i].Txs {
			for k := range records[i].Txs[j].Movements {
				m := &records[i].Txs[j].Movements[k]
				if m.Kind != KindNative && m.Kind != KindERC20 {
					continue
				}
				var key common.Address
				if m.Token != nil {
					key = *m.Token
				}
				p, seen := prices[key]
				if !seen {
					if usd, ok := f.ix.cfg.Price(ctx, f.c.ChainID, m.Token); ok {
						p = &usd
					}
					prices[key] = p
				}
				m.Price = p
			}
		}
	}
}

// reorg finds the newest stored block at or below from that is still on the
// chain, deletes everything above it and continues from there.
func (f *follower) reorg(ctx context.Context, from uint64) error {
	oldest, ok, err := f.ix.cfg.Store.oldestBlock(ctx, f.c.ChainID)
	if err != nil {
		return err
	}
	if !ok || oldest > from {
		return f.rollback(ctx, from)
	}
	stored, err := f.ix.cfg.Store.blockHashes(ctx, f.c.ChainID, oldest, from)
	if err != nil {
		return err
	}
	// Compare from the top down, a batch of headers at a time.
	const step = 32
	for hi := from; ; {
		lo := oldest
		if hi-oldest+1 > step {
			lo = hi - step + 1
		}
		headers, err := f.c.Client.Headers(ctx, lo, hi)
		if err != nil {
			return fmt.Errorf("reorg: headers %d-%d: %w", lo, hi, err)
		}
		for i := len(headers) - 1; i >= 0; i-- {
			n := lo + uint64(i)
			if s, ok := stored[n]; ok && s == headers[i].Hash {
				return f.rollback(ctx, n+1)
			}
		}
		if lo == oldest {
			break
		}
		hi = lo - 1
	}
	f.log.Error("indexer: reorg deeper than the kept window; indexing the window again", "window_start", oldest)
	return f.rollback(ctx, oldest)
}

func (f *follower) rollback(ctx context.Context, to uint64) error {
	next, _ := f.progress()
	if err := f.ix.cfg.Store.rollback(ctx, f.c.ChainID, to); err != nil {
		return fmt.Errorf("reorg: rollback to %d: %w", to, err)
	}
	f.log.Warn("indexer: reorg; re-indexing replaced blocks", "from_block", to, "replaced", int64(next)-int64(to))
	f.setNext(to)
	return nil
}
