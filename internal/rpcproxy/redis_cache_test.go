package rpcproxy

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/poll"
	"github.com/latchkit/latch/internal/redistest"
	"github.com/redis/go-redis/v9"
)

var _ Cache = (*RedisCache)(nil)

func TestRedisCache(t *testing.T) {
	client, prefix := redistest.MustClient(t)
	ctx := context.Background()
	c := NewRedisCache(client, prefix)

	mustGet := func(t *testing.T, key string) ([]byte, bool) {
		t.Helper()
		v, ok, err := c.Get(ctx, key)
		if err != nil {
			t.Fatalf("Get(%q): %v", key, err)
		}
		return v, ok
	}
	mustSet := func(t *testing.T, key string, v []byte, ttl time.Duration) {
		t.Helper()
		if err := c.Set(ctx, key, v, ttl); err != nil {
			t.Fatalf("Set(%q): %v", key, err)
		}
	}

	t.Run("OK", func(t *testing.T) {
		value := []byte("{\"result\":\"0x1\"}\x00\xff binary") // exact bytes, not text
		mustSet(t, "eip155:1\x00eth_chainId\x00[]", value, time.Minute)
		if v, ok := mustGet(t, "eip155:1\x00eth_chainId\x00[]"); !ok || !bytes.Equal(v, value) {
			t.Fatalf("Get = %q, %v; want %q", v, ok, value)
		}
		mustSet(t, "eip155:1\x00eth_chainId\x00[]", []byte("0x2"), time.Minute) // last Set wins
		if v, _ := mustGet(t, "eip155:1\x00eth_chainId\x00[]"); string(v) != "0x2" {
			t.Fatalf("after second Set: %q", v)
		}
	})

	t.Run("Miss", func(t *testing.T) {
		if v, ok := mustGet(t, "never set"); ok || v != nil {
			t.Fatalf("Get = %q, %v; want a miss", v, ok)
		}
	})

	t.Run("Expiry", func(t *testing.T) {
		mustSet(t, "short", []byte("v"), 150*time.Millisecond)
		if _, ok := mustGet(t, "short"); !ok {
			t.Fatal("miss right after Set")
		}
		// Redis keeps the time: the entry is stored for the ttl, and then
		// it is gone.
		if ttl, err := client.PTTL(ctx, c.redisKey("short")).Result(); err != nil || ttl <= 0 || ttl > 150*time.Millisecond {
			t.Fatalf("PTTL = %v, %v; want at most 150 ms", ttl, err)
		}
		poll.For(t, 5*time.Second, func() bool { _, ok := mustGet(t, "short"); return !ok })
		// A ttl too short to be stored safely is not stored.
		mustSet(t, "tiny", []byte("v"), time.Millisecond)
		if _, ok := mustGet(t, "tiny"); ok {
			t.Fatal("1 ms entry served")
		}
	})

	t.Run("NoExpiryCapped", func(t *testing.T) {
		mustSet(t, "forever", []byte("v"), 0)
		ttl, err := client.PTTL(ctx, c.redisKey("forever")).Result()
		if err != nil {
			t.Fatal(err)
		}
		if ttl <= RedisCacheMaxTTL-time.Minute || ttl > RedisCacheMaxTTL {
			t.Fatalf("PTTL of a ttl-0 entry %s, want about %s", ttl, RedisCacheMaxTTL)
		}
	})

	t.Run("LongKeyHashed", func(t *testing.T) {
		long := "eip155:1\x00eth_call\x00" + strings.Repeat("ab", 5000)
		other := long[:len(long)-1] + "c"
		mustSet(t, long, []byte("one"), time.Minute)
		mustSet(t, other, []byte("two"), time.Minute)
		if v, _ := mustGet(t, long); string(v) != "one" {
			t.Fatalf("long key: %q, want one", v)
		}
		if v, _ := mustGet(t, other); string(v) != "two" {
			t.Fatalf("other long key: %q, want two", v)
		}
		if k := c.redisKey(long); len(k) > len(prefix)+80 {
			t.Fatalf("Redis key of %d bytes for a %d-byte key, want it hashed", len(k), len(long))
		}
		if n, err := client.Exists(ctx, c.redisKey(long)).Result(); err != nil || n != 1 {
			t.Fatalf("hashed key not in Redis: %d, %v", n, err)
		}
	})

	t.Run("ErrUnreachable", func(t *testing.T) {
		down := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1})
		defer down.Close()
		dc := NewRedisCache(down, prefix)
		if _, ok, err := dc.Get(ctx, "k"); err == nil || ok {
			t.Fatalf("Get with Redis down: ok=%v err=%v, want an error", ok, err)
		}
		if err := dc.Set(ctx, "k", []byte("v"), time.Minute); err == nil {
			t.Fatal("Set with Redis down: no error")
		}
	})
}
