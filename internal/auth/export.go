package auth

import (
	"context"
	"fmt"
	"html"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/mail"
	"github.com/latchkit/latch/internal/project"
)

// KindExportNotice is the mail kind of a key-export notice.
const KindExportNotice = "export-notice"

// Messages of the export gate.
const (
	MsgExportNeedsCode = "Key export needs a fresh e-mail code: log in again with a code"
	MsgNoticeFailed    = "The export notice could not be sent; try again later"
)

// Export is what an authorised export releases: the auth share, the same
// share a signing session fetches (POST /auth/v1/shares/fetch). The frame
// rebuilds the key from it and its device share and shows it inside its
// own document; the key itself never reaches latchd.
type Export struct {
	AuthShare    string    `json:"authShare"`
	AuthorizedAt time.Time `json:"authorizedAt"`
	// NoticeSentTo is the address the notice went to ("" for an account
	// without an e-mail address).
	NoticeSentTo string `json:"noticeSentTo"`
}

// AuthorizeExport is the key-export gate: a session bound to deviceID that
// proved its second factor within FactorWindow (a user with one), or was
// opened by an e-mail code within FactorWindow (a user without one); at
// most ExportLimit per user per ExportWindow. It mails a notice to the
// account's address, and only once the notice is handed to the mail
// server does it release the auth share. Errors: forbidden (another device;
// MsgFactorRequired; MsgExportNeedsCode), not_found (no shares),
// rate_limited, unavailable (MsgNoticeFailed).
func (s *Service) AuthorizeExport(ctx context.Context, p *project.Project, a *Auth, deviceID string) (*Export, error) {
	if err := boundTo(a, deviceID); err != nil {
		return nil, err
	}
	f, err := s.factors(ctx, querier{db: s.db}, a.UserID)
	if err != nil {
		return nil, err
	}
	now := s.now()
	switch {
	case f.Any() && !a.FactorFresh(now):
		return nil, apperr.Fieldf(apperr.Forbidden, "secondFactor", MsgFactorRequired)
	case !f.Any() && !a.CodeFresh(now):
		return nil, apperr.Fieldf(apperr.Forbidden, "secondFactor", MsgExportNeedsCode)
	}
	shares, err := s.FetchShares(ctx, a, deviceID, false)
	if err != nil {
		return nil, err
	}
	if err := s.allow(ctx, limitCheck{s.cfg.ExportLimiter, p.ID + "/" + a.UserID, "key exports for this account"}); err != nil {
		return nil, err
	}
	out := &Export{AuthShare: shares.AuthShare, AuthorizedAt: now.UTC()}
	if a.Email != "" {
		if err := s.cfg.Mail.Send(ctx, exportNotice(p, a.Email, now)); err != nil {
			s.cfg.Logger.ErrorContext(ctx, "auth: export notice not sent; export refused", "project_id", p.ID, "user_id", a.UserID, "err", err)
			return nil, apperr.Errorf(apperr.Unavailable, MsgNoticeFailed)
		}
		out.NoticeSentTo = a.Email
	}
	s.cfg.Logger.InfoContext(ctx, "auth: key export authorised", "project_id", p.ID, "user_id", a.UserID, "session_id", a.SessionID, "with_factor", f.Any())
	return out, nil
}

// exportNotice tells the address that its wallet's key was exported. It is
// in English: the mail templates (internal/mail) have no export kind yet.
func exportNotice(p *project.Project, to string, at time.Time) mail.Message {
	name := p.Name
	if name == "" {
		name = "your app"
	}
	when := at.UTC().Format("2006-01-02 15:04 UTC")
	text := fmt.Sprintf("The private key of your %s wallet was exported on %s.\n\n"+
		"If this was you, there is nothing to do. If it was not, someone has access to your account and your key: "+
		"move your funds to a new wallet now and contact %s.\n", name, when, name)
	body := fmt.Sprintf(`<!doctype html><html lang="en"><body><p>The private key of your %s wallet was exported on %s.</p>`+
		`<p>If this was you, there is nothing to do. If it was not, someone has access to your account and your key: `+
		`move your funds to a new wallet now and contact %s.</p></body></html>`, html.EscapeString(name), when, html.EscapeString(name))
	return mail.Message{To: to, Subject: "Your " + name + " wallet key was exported", Text: text, HTML: body, Kind: KindExportNotice}
}
