package siwx

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// NonceLifetime is how long an issued nonce can be spent.
const NonceLifetime = 5 * time.Minute

// Nonce is an issued sign-in nonce and what it is bound to.
type Nonce struct {
	Value     string `json:"nonce"`
	ProjectID string `json:"projectId"`
	// Domain is the host[:port] of the page that asked for it (its Origin);
	// "" when the request had no Origin (a backend), which binds no domain.
	Domain    string    `json:"domain"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// ErrNonceUnknown is Take's answer for a token never issued, already spent
// or expired.
var ErrNonceUnknown = errors.New("siwx: nonce unknown, spent or expired")

// NonceStore keeps issued nonces until they are spent or expire, keyed by
// the token handed to the client. Every implementation must guarantee:
// Take is atomic (of concurrent Takes of one token, across every latchd
// node sharing the store, at most one gets the nonce), a taken or expired
// nonce is never returned again, and Put never replaces a live entry.
type NonceStore interface {
	// Put stores n under token until n.ExpiresAt.
	Put(ctx context.Context, token string, n Nonce) error
	// Take removes and returns the nonce of token, or ErrNonceUnknown.
	Take(ctx context.Context, token string) (Nonce, error)
}

// maxMemoryNonces bounds the memory store; issuing more is refused until
// some are spent or expire (5 minutes at most).
const maxMemoryNonces = 100_000

// ErrTooManyNonces is the memory store's refusal when it is full.
var ErrTooManyNonces = errors.New("siwx: too many outstanding nonces")

// MemoryNonces is the NonceStore of a single latchd node.
type MemoryNonces struct {
	Now func() time.Time
	mu  sync.Mutex
	m   map[string]Nonce
}

// NewMemoryNonces returns an empty memory store.
func NewMemoryNonces(now func() time.Time) *MemoryNonces {
	return &MemoryNonces{Now: now, m: map[string]Nonce{}}
}

// Put implements NonceStore.
func (s *MemoryNonces) Put(_ context.Context, token string, n Nonce) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.Now()
	if len(s.m) >= maxMemoryNonces {
		for k, v := range s.m {
			if !now.Before(v.ExpiresAt) {
				delete(s.m, k)
			}
		}
		if len(s.m) >= maxMemoryNonces {
			return ErrTooManyNonces
		}
	}
	if _, ok := s.m[token]; ok {
		return fmt.Errorf("siwx: nonce token collision")
	}
	s.m[token] = n
	return nil
}

// Take implements NonceStore.
func (s *MemoryNonces) Take(_ context.Context, token string) (Nonce, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.m[token]
	if !ok {
		return Nonce{}, ErrNonceUnknown
	}
	delete(s.m, token)
	if !s.Now().Before(n.ExpiresAt) {
		return Nonce{}, ErrNonceUnknown
	}
	return n, nil
}

// RedisNonces is the NonceStore shared by latchd nodes through Redis: SET NX
// with the nonce's lifetime, spent with GETDEL (atomic; Redis 6.2 or later).
type RedisNonces struct {
	client redis.UniversalClient
	prefix string
	now    func() time.Time
}

// NewRedisNonces returns a store whose keys start with prefix.
func NewRedisNonces(client redis.UniversalClient, prefix string, now func() time.Time) *RedisNonces {
	return &RedisNonces{client: client, prefix: prefix, now: now}
}

// key hashes the token: Redis never holds a spendable token.
func (s *RedisNonces) key(token string) string {
	h := sha256.Sum256([]byte(token))
	return s.prefix + hex.EncodeToString(h[:])
}

// Put implements NonceStore.
func (s *RedisNonces) Put(ctx context.Context, token string, n Nonce) error {
	b, err := json.Marshal(n)
	if err != nil {
		return err
	}
	ttl := n.ExpiresAt.Sub(s.now())
	if ttl <= 0 {
		return errors.New("siwx: nonce already expired")
	}
	ok, err := s.client.SetNX(ctx, s.key(token), b, ttl).Result()
	if err != nil {
		return fmt.Errorf("siwx: store nonce: %w", err)
	}
	if !ok {
		return errors.New("siwx: nonce token collision")
	}
	return nil
}

// Take implements NonceStore.
func (s *RedisNonces) Take(ctx context.Context, token string) (Nonce, error) {
	b, err := s.client.GetDel(ctx, s.key(token)).Bytes()
	if errors.Is(err, redis.Nil) {
		return Nonce{}, ErrNonceUnknown
	}
	if err != nil {
		return Nonce{}, fmt.Errorf("siwx: spend nonce: %w", err)
	}
	var n Nonce
	if err := json.Unmarshal(b, &n); err != nil {
		return Nonce{}, fmt.Errorf("siwx: stored nonce: %w", err)
	}
	if !s.now().Before(n.ExpiresAt) {
		return Nonce{}, ErrNonceUnknown
	}
	return n, nil
}
