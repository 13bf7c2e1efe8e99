package auth_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/ratelimit"
	"github.com/latchkit/latch/internal/store/storetest"
)

// BenchmarkService_StartVerify measures one e-mail login round trip on the
// server, SMTP excluded (the mail goes to the dev outbox): start for a known
// device (a code is made, stored as HMAC and mailed), the code read from the
// outbox, verify (the try taken, the code consumed, a session written). SQLite
// in a file, as latchd dev and small deployments run it. It reports the
// round trip's p50 and p99 (goal: p99 < 20 ms).
func BenchmarkService_StartVerify(b *testing.B) {
	db := storetest.MustOpenSQLite(b)
	unlimited := ratelimit.NewMemory(1<<30, time.Second)
	e := newEnv(b, db, func(c *auth.Config) {
		c.EmailLimiter, c.IPStartLimiter, c.IPVerifyLimiter, c.ProjectLimiter = unlimited, unlimited, unlimited, unlimited
		c.IPEmailLimiter, c.DeviceStartLimiter = unlimited, unlimited
		c.Now = time.Now
	})
	ctx := context.Background()
	// One account with an approved device per round trip (a new code for an
	// address waits out the 30 s cooldown).
	type account struct{ email, device string }
	accounts := make([]account, b.N)
	for i := range accounts {
		a := account{fmt.Sprintf("bench%d@example.com", i), newDevice()}
		uid := fmt.Sprintf("u%d", i)
		if _, err := db.Exec(ctx, `INSERT INTO auth_users (id, project_id, email, created_at) VALUES (?, ?, ?, 0)`, uid, e.p.ID, a.email); err != nil {
			b.Fatal(err)
		}
		if _, err := db.Exec(ctx, `INSERT INTO auth_devices (user_id, device_id, approved_at) VALUES (?, ?, 0)`, uid, a.device); err != nil {
			b.Fatal(err)
		}
		accounts[i] = a
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for _, a := range accounts {
		t0 := time.Now()
		res, err := e.svc.Start(ctx, auth.StartRequest{Project: e.p, Email: a.email, DeviceID: a.device, IP: "192.0.2.1"})
		if err != nil || res.Action != auth.ActionVerifyOTP {
			b.Fatalf("start: %+v %v", res, err)
		}
		code := e.outbox.List(a.email)[0].Code
		if _, err := e.svc.Verify(ctx, auth.VerifyRequest{Project: e.p, Email: a.email, DeviceID: a.device, OTP: code, IP: "192.0.2.1"}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}
