package social

import (
	"context"
	"net/http"

	"github.com/latchkit/latch/internal/auth"
)

// facebookDefinition: Facebook Login is OAuth 2.0 here; the Graph API's
// /me gives the app-scoped id, the name and the e-mail. Facebook does not
// say whether the e-mail was verified, so it never links to an e-mail
// account (spec: an unverified e-mail never links).
var facebookDefinition = &Definition{
	Name:  Facebook,
	Title: "Facebook",
	Endpoints: Endpoints{
		AuthURL:  "https://www.facebook.com/v19.0/dialog/oauth",
		TokenURL: "https://graph.facebook.com/v19.0/oauth/access_token",
		UserURL:  "https://graph.facebook.com/v19.0/me?fields=id,name,email",
	},
	Scopes:  []string{"public_profile", "email"},
	Profile: facebookProfile,
}

func facebookProfile(ctx context.Context, client *http.Client, ep Endpoints) (auth.SocialIdentity, error) {
	var u struct {
		ID    flexID `json:"id"`
		Name  string `json:"name"`
		Email string `json:"email"`
	}
	if err := getJSON(ctx, client, ep.UserURL, &u); err != nil {
		return auth.SocialIdentity{}, err
	}
	return auth.SocialIdentity{Provider: Facebook, Subject: string(u.ID), Username: u.Name, Email: u.Email}, nil
}
