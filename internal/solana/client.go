package solana

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// Well-known program addresses.
var (
	SystemProgram          = MustParseAddress("11111111111111111111111111111111")
	TokenProgram           = MustParseAddress("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
	Token2022Program       = MustParseAddress("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb")
	AssociatedTokenProgram = MustParseAddress("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL")
)

// Client calls a Solana network's JSON-RPC upstreams: each call goes to the
// first upstream and, when it cannot answer (transport error, HTTP 5xx or
// 429), to the next. A JSON-RPC error from a node is its answer and is not
// retried elsewhere. It is safe for concurrent use.
type Client struct {
	urls []string
	http *http.Client
}

// NewClient returns a Client of the upstream URLs (at least one).
func NewClient(urls []string, hc *http.Client) (*Client, error) {
	if len(urls) == 0 {
		return nil, errors.New("solana: no upstream URL")
	}
	if hc == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = 32
		hc = &http.Client{Transport: tr, Timeout: 10 * time.Second}
	}
	return &Client{urls: append([]string(nil), urls...), http: hc}, nil
}

// RPCError is a JSON-RPC error answered by a node.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("solana rpc %d: %s", e.Code, e.Message) }

// Call is one request of a batch: its method, params and where to decode the
// result; Err is set per call after Batch.
type Call struct {
	Method string
	Params []any
	Result any
	Err    error
}

type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int    `json:"id"`
	Method  string `json:"method"`
	Params  []any  `json:"params"`
}

type response struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *RPCError       `json:"error"`
}

// Do makes one call and decodes its result into result.
func (c *Client) Do(ctx context.Context, result any, method string, params ...any) error {
	calls := []Call{{Method: method, Params: params, Result: result}}
	if err := c.Batch(ctx, calls); err != nil {
		return err
	}
	return calls[0].Err
}

// Batch sends calls as one JSON-RPC batch. The returned error is for the
// batch as a whole (no upstream answered); each call's own error is in its Err.
func (c *Client) Batch(ctx context.Context, calls []Call) error {
	reqs := make([]request, len(calls))
	for i, call := range calls {
		p := call.Params
		if p == nil {
			p = []any{}
		}
		reqs[i] = request{JSONRPC: "2.0", ID: i, Method: call.Method, Params: p}
	}
	body, err := json.Marshal(reqs)
	if err != nil {
		return err
	}
	var lastErr error
	for _, u := range c.urls {
		resps, retry, err := c.post(ctx, u, body)
		if err != nil {
			lastErr = err
			if retry && ctx.Err() == nil {
				continue
			}
			return err
		}
		seen := make([]bool, len(calls))
		for _, r := range resps {
			if r.ID < 0 || r.ID >= len(calls) || seen[r.ID] {
				continue
			}
			seen[r.ID] = true
			switch {
			case r.Error != nil:
				calls[r.ID].Err = r.Error
			case calls[r.ID].Result != nil:
				if err := json.Unmarshal(r.Result, calls[r.ID].Result); err != nil {
					calls[r.ID].Err = fmt.Errorf("solana rpc %s: decode result: %w", calls[r.ID].Method, err)
				}
			}
		}
		for i, ok := range seen {
			if !ok {
				calls[i].Err = fmt.Errorf("solana rpc %s: no answer in the batch", calls[i].Method)
			}
		}
		return nil
	}
	return lastErr
}

// maxResponse bounds one upstream answer.
const maxResponse = 32 << 20

func (c *Client) post(ctx context.Context, url string, body []byte) ([]response, bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, false, err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.http.Do(req)
	if err != nil {
		return nil, true, fmt.Errorf("solana rpc: %w", err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxResponse))
	if err != nil {
		return nil, true, fmt.Errorf("solana rpc: read answer: %w", err)
	}
	if res.StatusCode >= 500 || res.StatusCode == http.StatusTooManyRequests {
		return nil, true, fmt.Errorf("solana rpc: upstream answered HTTP %d", res.StatusCode)
	}
	if res.StatusCode != http.StatusOK {
		return nil, false, fmt.Errorf("solana rpc: upstream answered HTTP %d", res.StatusCode)
	}
	var out []response
	if err := json.Unmarshal(raw, &out); err != nil {
		// A node answers a batch-level failure with one error object.
		var one response
		if json.Unmarshal(raw, &one) == nil && one.Error != nil {
			return nil, false, one.Error
		}
		return nil, true, errors.New("solana rpc: the upstream's answer is not a JSON-RPC batch")
	}
	return out, false, nil
}

// Lamports is a u64 amount as Solana's RPC writes it (a JSON number).
type Lamports uint64

// UnmarshalJSON reads a number (or a string of digits, as some RPCs write large u64s).
func (l *Lamports) UnmarshalJSON(b []byte) error {
	s := string(bytes.Trim(b, `"`))
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("solana: lamports %s: %w", s, err)
	}
	*l = Lamports(n)
	return nil
}
