package auth_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/mail"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

// A stranger who knows the visitor's address starts e-mail logins for it:
// the visitor's pending approval link stays valid (a pending challenge
// belongs to its device), and once approved the visitor's next code is
// sent (a stranger's starts pay their IP's and device's limits first and
// never the approved device's). From one IP, from the visitor's own IP (a
// shared NAT), and from a new IP every time.
func TestService_StrangerStarts(t *testing.T) {
	const visitorIP, address = "192.0.2.1", "visitor@example.com"
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for name, strangerIP := range map[string]func(i int) string{
			"OneIP":     func(int) string { return "198.51.100.7" },
			"VisitorIP": func(int) string { return visitorIP },
			"EveryIP":   func(i int) string { return fmt.Sprintf("203.0.113.%d", i+1) },
		} {
			t.Run(name, func(t *testing.T) {
				e := newEnv(t, db, nil)
				visitor := newDevice()
				pending, err := e.svc.Start(ctx, auth.StartRequest{Project: e.p, Email: address, DeviceID: visitor, IP: visitorIP})
				if err != nil || pending.Action != auth.ActionVerifyDevice {
					t.Fatalf("visitor's start: %+v %v", pending, err)
				}
				link := e.token(address)

				// 20 starts in 500 seconds (the link lives 600): a new device each time, and one
				// device again and again (its cooldown refuses most).
				stranger := newDevice()
				sent := 0
				for i := 0; i < 20; i++ {
					dev := newDevice()
					if i%2 == 1 {
						dev = stranger
					}
					e.clock.Add(25 * time.Second)
					_, err := e.svc.Start(ctx, auth.StartRequest{Project: e.p, Email: address, DeviceID: dev, IP: strangerIP(i)})
					switch {
					case err == nil:
						sent++
					case apperr.Code(err) != apperr.RateLimited:
						t.Fatalf("stranger's start %d: %v", i, err)
					}
				}
				// The address's own budget still bounds what reaches the mailbox.
				if got := len(e.outbox.List(address)); got > auth.EmailLimit || got != sent+1 {
					t.Fatalf("%d mails to the address (%d from the stranger), budget %d", got, sent, auth.EmailLimit)
				}

				if st, err := e.svc.DeviceStatus(ctx, e.p.ID, pending.RequestID, visitor); err != nil || st != auth.DevicePending {
					t.Fatalf("visitor's request after the stranger's starts: %s %v", st, err)
				}
				if _, st, _ := e.svc.LinkState(ctx, link); st != auth.DevicePending {
					t.Fatalf("visitor's link: %s", st)
				}
				if _, err := e.svc.Approve(ctx, link); err != nil {
					t.Fatalf("visitor approves: %v", err)
				}
				e.clock.Add(auth.ResendCooldown)
				res, err := e.svc.Start(ctx, auth.StartRequest{Project: e.p, Email: address, DeviceID: visitor, IP: visitorIP})
				if err != nil || res.Action != auth.ActionVerifyOTP {
					t.Fatalf("visitor's next start: %+v %v", res, err)
				}
				code := e.last(address)
				if code.Kind != mail.KindCode {
					t.Fatalf("newest mail is %s", code.Kind)
				}
				// A code entered on another device is no try of the visitor's.
				for i := 0; i < auth.MaxAttempts; i++ {
					if _, err := e.verify(address, stranger, code.Code); err == nil {
						t.Fatal("the visitor's code opened a session on the stranger's device")
					}
				}
				if _, err := e.verify(address, visitor, code.Code); err != nil {
					t.Fatalf("visitor's code: %v", err)
				}
			})
		}
	})
}

// Two devices asking for the same address each keep their own pending link
// and cooldown.
func TestService_ChallengesPerDevice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, nil)
		a, b := newDevice(), newDevice()
		ra := e.mustStart("a@example.com", a, auth.ActionVerifyDevice)
		la := e.token("a@example.com")
		// No cooldown between devices.
		rb := e.mustStart("a@example.com", b, auth.ActionVerifyDevice)
		lb := e.token("a@example.com")
		_, err := e.start("a@example.com", a)
		wantCode(t, err, apperr.RateLimited, "Please try again after 30 seconds")
		for _, r := range []struct{ req, dev, link string }{{ra.RequestID, a, la}, {rb.RequestID, b, lb}} {
			if st, _ := e.svc.DeviceStatus(ctx, e.p.ID, r.req, r.dev); st != auth.DevicePending {
				t.Fatalf("request of %s: %s", r.dev, st)
			}
			if _, err := e.svc.Approve(ctx, r.link); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func TestService_DeviceStartLimit(t *testing.T) {
	e := newEnv(t, storetest.MustOpenSQLite(t), nil)
	dev := newDevice()
	for i := 0; i < auth.DeviceStartLimit; i++ {
		e.clock.Add(auth.ResendCooldown)
		if _, err := e.svc.Start(context.Background(), auth.StartRequest{Project: e.p, Email: fmt.Sprintf("u%d@example.com", i), DeviceID: dev, IP: "192.0.2.1"}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := e.svc.Start(context.Background(), auth.StartRequest{Project: e.p, Email: "last@example.com", DeviceID: dev, IP: "192.0.2.1"})
	wantCode(t, err, apperr.RateLimited, "")
	if e := apperr.As(err); e == nil || e.Message[:len("Too many requests: e-mail logins from this device")] != "Too many requests: e-mail logins from this device" {
		t.Fatalf("err %v", err)
	}
}
