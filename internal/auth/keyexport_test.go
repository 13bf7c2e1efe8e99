package auth_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/ratelimit"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

func TestService_AuthorizeExport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		setup := func(t *testing.T, tweak func(*auth.Config)) (*env, string, *auth.Session) {
			e := newEnv(t, db, tweak)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			if err := e.svc.StoreShares(ctx, e.authFor(s), auth.StoreRequest{DeviceID: dev, AuthShare: "YXV0aA==", Recovery: auth.Recovery{Mode: auth.RecoveryOperator, Share: "cmVj"}}); err != nil {
				t.Fatal(err)
			}
			return e, dev, s
		}
		notices := func(e *env) int {
			n := 0
			for _, m := range e.outbox.List("a@example.com") {
				if m.Kind == auth.KindExportNotice {
					n++
				}
			}
			return n
		}
		t.Run("FreshCodeWithoutFactor", func(t *testing.T) {
			e, dev, s := setup(t, nil)
			x, err := e.svc.AuthorizeExport(ctx, e.p, e.authFor(s), dev)
			if err != nil || x.AuthShare != "YXV0aA==" || x.NoticeSentTo != "a@example.com" {
				t.Fatalf("%+v %v", x, err)
			}
			m := e.last("a@example.com")
			if m.Kind != auth.KindExportNotice || !strings.Contains(m.Text, "was exported") || !strings.Contains(m.Subject, "Demo") {
				t.Fatalf("notice %+v", m)
			}
			// Another device's session: refused.
			_, err = e.svc.AuthorizeExport(ctx, e.p, e.authFor(s), newDevice())
			wantCode(t, err, apperr.Forbidden, "")
			// Past FactorWindow the code is stale.
			e.clock.Add(auth.FactorWindow + time.Second)
			_, err = e.svc.AuthorizeExport(ctx, e.p, e.authFor(s), dev)
			wantCode(t, err, apperr.Forbidden, auth.MsgExportNeedsCode)
			if notices(e) != 1 {
				t.Fatalf("%d notices", notices(e))
			}
		})
		t.Run("RefreshIsNotACode", func(t *testing.T) {
			e, dev, s := setup(t, nil)
			e.clock.Add(auth.FactorWindow + time.Second)
			s2, err := e.svc.Refresh(ctx, e.p.ID, s.RefreshToken, dev)
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.svc.AuthorizeExport(ctx, e.p, e.authFor(s2), dev)
			wantCode(t, err, apperr.Forbidden, auth.MsgExportNeedsCode)
		})
		t.Run("FactorRequiredOnceEnrolled", func(t *testing.T) {
			e, dev, s := setup(t, wideLimits)
			secret := e.enrolTOTP(s, dev)
			e.clock.Add(auth.FactorWindow)
			// A fresh e-mail code no longer suffices.
			e.mustStart("a@example.com", dev, auth.ActionVerifyOTP)
			s2, err := e.verify("a@example.com", dev, e.last("a@example.com").Code)
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.svc.AuthorizeExport(ctx, e.p, e.authFor(s2), dev)
			wantCode(t, err, apperr.Forbidden, auth.MsgFactorRequired)
			if _, err := e.svc.VerifyTOTP(ctx, e.authFor(s2), dev, e.code(secret, 0), ip); err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.AuthorizeExport(ctx, e.p, e.authFor(s2), dev); err != nil {
				t.Fatal(err)
			}
		})
		t.Run("NoNoticeNoExport", func(t *testing.T) {
			e, dev, s := setup(t, nil)
			fail := &failingSender{}
			e.cfg.Mail = fail
			svc, err := auth.New(e.cfg)
			if err != nil {
				t.Fatal(err)
			}
			x, err := svc.AuthorizeExport(ctx, e.p, e.authFor(s), dev)
			wantCode(t, err, apperr.Unavailable, auth.MsgNoticeFailed)
			if x != nil || fail.n != 1 {
				t.Fatalf("%+v after %d sends", x, fail.n)
			}
		})
		t.Run("Limit", func(t *testing.T) {
			e, dev, s := setup(t, func(c *auth.Config) { c.ExportLimiter = ratelimit.NewMemory(2, time.Hour) })
			for range 2 {
				if _, err := e.svc.AuthorizeExport(ctx, e.p, e.authFor(s), dev); err != nil {
					t.Fatal(err)
				}
			}
			_, err := e.svc.AuthorizeExport(ctx, e.p, e.authFor(s), dev)
			wantCode(t, err, apperr.RateLimited, "")
			if notices(e) != 2 {
				t.Fatalf("%d notices", notices(e))
			}
		})
		t.Run("NothingStored", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			_, err := e.svc.AuthorizeExport(ctx, e.p, e.authFor(s), dev)
			wantCode(t, err, apperr.NotFound, "")
			if notices(e) != 0 {
				t.Fatal("a notice for an export that did not happen")
			}
		})
	})
}
