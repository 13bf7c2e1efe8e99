// Package evm is a JSON-RPC client for EVM networks: upstream failover,
// batches, eth_call, blocks with their receipts and transaction sending. The
// indexer, the account data, the dev chains and later capabilities (swap,
// names, bundler) read chains through it.
package evm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

// Client calls a network's JSON-RPC upstreams, in order, moving to the next
// one when a call fails at the transport level (connection, timeout, HTTP
// status) and staying on the one that answered. A JSON-RPC error from the
// node (a revert, an unknown method) is the node's answer and is returned as
// is. It is safe for concurrent use.
type Client struct {
	urls []string
	// timeout bounds one call to one upstream; 0 for an attached connection.
	timeout time.Duration
	// attached: one in-process connection, no upstream to fail over to.
	attached bool

	mu    sync.Mutex
	conns []*rpc.Client
	best  atomic.Int32
}

// callTimeout bounds one call to one upstream (spec §9: RPC timeout 10000 ms).
const callTimeout = 10 * time.Second

// NewClient returns a Client for the upstream URLs; connections open lazily.
func NewClient(urls []string) (*Client, error) {
	if len(urls) == 0 {
		return nil, errors.New("evm: no RPC upstream")
	}
	return &Client{urls: append([]string(nil), urls...), timeout: callTimeout, conns: make([]*rpc.Client, len(urls))}, nil
}

// Attach returns a Client over one open connection, such as an in-process
// node's (node.Node.Attach). Calls are not bounded by the upstream timeout
// (there is no transport to hang) and errors come back exactly as the
// connection returns them. Close closes conn.
func Attach(conn *rpc.Client) *Client {
	return &Client{urls: []string{"attached"}, conns: []*rpc.Client{conn}, attached: true}
}

// Close closes the upstream connections.
func (c *Client) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, conn := range c.conns {
		if conn != nil {
			conn.Close()
			c.conns[i] = nil
		}
	}
}

func (c *Client) conn(ctx context.Context, i int) (*rpc.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conns[i] == nil {
		conn, err := rpc.DialOptions(ctx, c.urls[i])
		if err != nil {
			return nil, err
		}
		c.conns[i] = conn
	}
	return c.conns[i], nil
}

// Batch sends elems as one JSON-RPC batch. The returned error is a transport
// failure of every upstream; per-element errors are in elems[i].Error.
func (c *Client) Batch(ctx context.Context, elems []rpc.BatchElem) error {
	if len(elems) == 0 {
		return nil
	}
	return c.try(ctx, func(ctx context.Context, conn *rpc.Client) error {
		for i := range elems {
			elems[i].Error = nil
		}
		if err := conn.BatchCallContext(ctx, elems); err != nil {
			return err
		}
		// An upstream that is down for some methods answers every element with
		// the same server error; treat a batch that failed entirely like a
		// transport error so the next upstream gets a chance.
		for _, e := range elems {
			if e.Error == nil || !isServerFailure(e.Error) {
				return nil
			}
		}
		return elems[0].Error
	})
}

// Call makes one JSON-RPC call into result.
func (c *Client) Call(ctx context.Context, result any, method string, args ...any) error {
	return c.try(ctx, func(ctx context.Context, conn *rpc.Client) error {
		err := conn.CallContext(ctx, result, method, args...)
		if err != nil && !isTransport(err) {
			return &nodeError{err}
		}
		return err
	})
}

// nodeError is an answer from the node, not a transport failure: no failover.
type nodeError struct{ err error }

func (e *nodeError) Error() string { return e.err.Error() }
func (e *nodeError) Unwrap() error { return e.err }

func (c *Client) try(ctx context.Context, fn func(context.Context, *rpc.Client) error) error {
	if c.attached {
		conn, err := c.conn(ctx, 0)
		if err != nil {
			return err
		}
		err = fn(ctx, conn)
		if ne, ok := err.(*nodeError); ok {
			return ne.err
		}
		return err
	}
	start := int(c.best.Load())
	var errs []error
	for k := range c.urls {
		i := (start + k) % len(c.urls)
		conn, err := c.conn(ctx, i)
		if err == nil {
			cctx, cancel := context.WithTimeout(ctx, c.timeout)
			err = fn(cctx, conn)
			cancel()
		}
		var ne *nodeError
		if err == nil || errors.As(err, &ne) {
			c.best.Store(int32(i))
			if ne != nil {
				return ne.err
			}
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		errs = append(errs, fmt.Errorf("upstream %d: %w", i+1, err))
	}
	return errors.Join(errs...)
}

// isTransport reports whether err came from the connection rather than from
// a JSON-RPC error object.
func isTransport(err error) bool {
	var rpcErr rpc.Error
	if errors.As(err, &rpcErr) {
		return isServerFailure(rpcErr)
	}
	return true
}

// isServerFailure: JSON-RPC errors that mean "this upstream cannot answer now"
// (internal error, rate limit, capacity), not "the request is wrong".
func isServerFailure(err error) bool {
	var rpcErr rpc.Error
	if !errors.As(err, &rpcErr) {
		return true
	}
	switch rpcErr.ErrorCode() {
	case -32603, -32005, -32000:
		msg := strings.ToLower(rpcErr.Error())
		if rpcErr.ErrorCode() == -32000 && !strings.Contains(msg, "limit") && !strings.Contains(msg, "timeout") && !strings.Contains(msg, "unavailable") {
			return false // -32000 is also geth's "execution reverted" and friends
		}
		return true
	}
	return false
}

// Header is the part of a block header latchd reads.
type Header struct {
	Number     hexutil.Uint64 `json:"number"`
	Hash       common.Hash    `json:"hash"`
	ParentHash common.Hash    `json:"parentHash"`
	Time       hexutil.Uint64 `json:"timestamp"`
}

// Block is eth_getBlockByNumber(n, true), decoded loosely: only the
// fields we use, so transaction types a network adds (deposit transactions on
// OP chains, …) never break decoding.
type Block struct {
	Header
	Transactions []Tx `json:"transactions"`
}

// Tx is a transaction of a Block.
type Tx struct {
	Hash  common.Hash     `json:"hash"`
	From  common.Address  `json:"from"`
	To    *common.Address `json:"to"`
	Nonce hexutil.Uint64  `json:"nonce"`
	Value *hexutil.Big    `json:"value"`
	Input hexutil.Bytes   `json:"input"`
	Index hexutil.Uint64  `json:"transactionIndex"`
}

// Receipt is a transaction's receipt.
type Receipt struct {
	TxHash          common.Hash     `json:"transactionHash"`
	Index           hexutil.Uint64  `json:"transactionIndex"`
	Status          *hexutil.Uint64 `json:"status"`
	ContractAddress *common.Address `json:"contractAddress"`
	Logs            []Log           `json:"logs"`
}

// Log is an event log of a Receipt.
type Log struct {
	Address common.Address `json:"address"`
	Topics  []common.Hash  `json:"topics"`
	Data    hexutil.Bytes  `json:"data"`
	Index   hexutil.Uint64 `json:"logIndex"`
}

// BlockWithReceipts is a block with the receipt of each of its transactions, in order.
type BlockWithReceipts struct {
	Block
	Receipts []Receipt
}

// Header returns the header of block n, or of the latest block when latest is true.
func (c *Client) Header(ctx context.Context, n uint64, latest bool) (Header, error) {
	var h *Header
	tag := hexutil.EncodeUint64(n)
	if latest {
		tag = "latest"
	}
	if err := c.Call(ctx, &h, "eth_getBlockByNumber", tag, false); err != nil {
		return Header{}, err
	}
	if h == nil {
		return Header{}, fmt.Errorf("block %s not found", tag)
	}
	return *h, nil
}

// Headers returns the headers of blocks from..to in one batch.
func (c *Client) Headers(ctx context.Context, from, to uint64) ([]Header, error) {
	out := make([]*Header, to-from+1)
	elems := make([]rpc.BatchElem, len(out))
	for i := range elems {
		elems[i] = rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{hexutil.EncodeUint64(from + uint64(i)), false}, Result: &out[i]}
	}
	if err := c.Batch(ctx, elems); err != nil {
		return nil, err
	}
	hs := make([]Header, len(out))
	for i, e := range elems {
		if e.Error != nil {
			return nil, e.Error
		}
		if out[i] == nil {
			return nil, fmt.Errorf("block %d not found", from+uint64(i))
		}
		hs[i] = *out[i]
	}
	return hs, nil
}

// ErrNoBlockReceipts marks an upstream without eth_getBlockReceipts.
var ErrNoBlockReceipts = errors.New("eth_getBlockReceipts unsupported")

// Blocks fetches blocks from..to with their transactions and receipts: one
// batch of eth_getBlockByNumber plus eth_getBlockReceipts, or, where an
// upstream lacks eth_getBlockReceipts, a second batch of
// eth_getTransactionReceipt.
func (c *Client) Blocks(ctx context.Context, from, to uint64, perTxReceipts bool) ([]BlockWithReceipts, error) {
	n := int(to - from + 1)
	blocks := make([]*Block, n)
	receipts := make([][]Receipt, n)
	elems := make([]rpc.BatchElem, 0, 2*n)
	for i := range n {
		tag := hexutil.EncodeUint64(from + uint64(i))
		elems = append(elems, rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{tag, true}, Result: &blocks[i]})
		if !perTxReceipts {
			elems = append(elems, rpc.BatchElem{Method: "eth_getBlockReceipts", Args: []any{tag}, Result: &receipts[i]})
		}
	}
	if err := c.Batch(ctx, elems); err != nil {
		return nil, err
	}
	for _, e := range elems {
		if e.Error != nil {
			var rpcErr rpc.Error
			if e.Method == "eth_getBlockReceipts" && errors.As(e.Error, &rpcErr) && rpcErr.ErrorCode() == -32601 {
				return nil, ErrNoBlockReceipts
			}
			return nil, fmt.Errorf("%s: %w", e.Method, e.Error)
		}
	}
	out := make([]BlockWithReceipts, n)
	for i, b := range blocks {
		if b == nil {
			return nil, fmt.Errorf("block %d not found", from+uint64(i))
		}
		out[i].Block = *b
		out[i].Receipts = receipts[i]
	}
	if perTxReceipts {
		if err := c.txReceipts(ctx, out); err != nil {
			return nil, err
		}
	}
	for i := range out {
		if len(out[i].Receipts) != len(out[i].Transactions) {
			return nil, fmt.Errorf("block %d: %d receipts for %d transactions", from+uint64(i), len(out[i].Receipts), len(out[i].Transactions))
		}
		for j, r := range out[i].Receipts {
			if r.TxHash != out[i].Transactions[j].Hash {
				return nil, fmt.Errorf("block %d: receipt %d is for another transaction", from+uint64(i), j)
			}
		}
	}
	return out, nil
}

func (c *Client) txReceipts(ctx context.Context, blocks []BlockWithReceipts) error {
	var elems []rpc.BatchElem
	var dst []*Receipt
	for i := range blocks {
		blocks[i].Receipts = make([]Receipt, len(blocks[i].Transactions))
		for j, tx := range blocks[i].Transactions {
			dst = append(dst, &blocks[i].Receipts[j])
			elems = append(elems, rpc.BatchElem{Method: "eth_getTransactionReceipt", Args: []any{tx.Hash}, Result: dst[len(dst)-1]})
		}
	}
	if err := c.Batch(ctx, elems); err != nil {
		return err
	}
	for _, e := range elems {
		if e.Error != nil {
			return fmt.Errorf("eth_getTransactionReceipt: %w", e.Error)
		}
	}
	return nil
}

// CallElem is an eth_call in a batch: the contract, the call data, and after
// the batch the returned data or the error.
type CallElem struct {
	To     common.Address
	Data   []byte
	Result hexutil.Bytes
	Err    error
}

// CallBatch makes every eth_call against the latest block in one batch.
// The error is a transport failure; a reverted call sets its Err.
func (c *Client) CallBatch(ctx context.Context, calls []CallElem) error {
	elems := make([]rpc.BatchElem, len(calls))
	for i := range calls {
		elems[i] = rpc.BatchElem{
			Method: "eth_call",
			Args:   []any{map[string]any{"to": calls[i].To, "data": hexutil.Bytes(calls[i].Data)}, "latest"},
			Result: &calls[i].Result,
		}
	}
	if err := c.Batch(ctx, elems); err != nil {
		return err
	}
	for i := range elems {
		calls[i].Err = elems[i].Error
	}
	return nil
}

// CallContract is one eth_call against the latest block.
func (c *Client) CallContract(ctx context.Context, to common.Address, data []byte) ([]byte, error) {
	var out hexutil.Bytes
	err := c.Call(ctx, &out, "eth_call", map[string]any{"to": to, "data": hexutil.Bytes(data)}, "latest")
	return out, err
}

// SendTransaction submits a signed transaction (eth_sendRawTransaction).
func (c *Client) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	raw, err := tx.MarshalBinary()
	if err != nil {
		return err
	}
	return c.Call(ctx, nil, "eth_sendRawTransaction", hexutil.Encode(raw))
}

// PendingNonceAt is the account's next nonce, counting pooled transactions.
func (c *Client) PendingNonceAt(ctx context.Context, account common.Address) (uint64, error) {
	var n hexutil.Uint64
	err := c.Call(ctx, &n, "eth_getTransactionCount", account, "pending")
	return uint64(n), err
}

// EstimateGas estimates the gas msg needs against the pending state.
func (c *Client) EstimateGas(ctx context.Context, msg ethereum.CallMsg) (uint64, error) {
	var n hexutil.Uint64
	err := c.Call(ctx, &n, "eth_estimateGas", callArg(msg))
	return uint64(n), err
}

// callArg is msg as the JSON object eth_call and eth_estimateGas take; unset
// fields are left out so the node fills them in.
func callArg(msg ethereum.CallMsg) map[string]any {
	arg := map[string]any{"from": msg.From}
	if msg.To != nil {
		arg["to"] = msg.To
	}
	if len(msg.Data) > 0 {
		arg["input"] = hexutil.Bytes(msg.Data)
	}
	if msg.Value != nil {
		arg["value"] = (*hexutil.Big)(msg.Value)
	}
	if msg.Gas != 0 {
		arg["gas"] = hexutil.Uint64(msg.Gas)
	}
	if msg.GasPrice != nil {
		arg["gasPrice"] = (*hexutil.Big)(msg.GasPrice)
	}
	if msg.GasFeeCap != nil {
		arg["maxFeePerGas"] = (*hexutil.Big)(msg.GasFeeCap)
	}
	if msg.GasTipCap != nil {
		arg["maxPriorityFeePerGas"] = (*hexutil.Big)(msg.GasTipCap)
	}
	return arg
}
