package breaker

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/redis/go-redis/v9"
)

// RedisHook puts b in front of every command and pipeline of a go-redis
// client: while b is open they fail at once with an *OpenError, without
// touching the network. Connections of Pub/Sub are not gated: they
// reconnect on their own.
func RedisHook(b *Breaker) redis.Hook { return redisHook{b} }

type redisHook struct{ b *Breaker }

func (h redisHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h redisHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if err := h.b.Allow(ctx); err != nil {
			cmd.SetErr(err)
			return err
		}
		err := next(ctx, cmd)
		h.b.Record(ctx, RedisOutcome(err))
		return err
	}
}

func (h redisHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if err := h.b.Allow(ctx); err != nil {
			for _, c := range cmds {
				c.SetErr(err)
			}
			return err
		}
		err := next(ctx, cmds)
		h.b.Record(ctx, RedisOutcome(err))
		return err
	}
}

// RedisOutcome classifies the error of a Redis command: a failure of Redis
// (no answer in time, a refused or broken connection, a server that is
// loading or has lost its primary), an abandoned call (its caller went
// away), or a success (an answer, even an error Redis gave on purpose,
// such as redis.Nil or a script's error).
func RedisOutcome(err error) Outcome {
	if err == nil || errors.Is(err, redis.Nil) {
		return Succeeded
	}
	if errors.Is(err, context.Canceled) {
		return Abandoned
	}
	var netErr net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &netErr) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, redis.ErrPoolTimeout) {
		return Failed
	}
	msg := err.Error()
	for _, prefix := range []string{"LOADING", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN"} {
		if strings.HasPrefix(msg, prefix) {
			return Failed
		}
	}
	return Succeeded
}
