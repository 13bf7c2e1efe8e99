package social

import (
	"context"
	"net/http"

	"github.com/latchkit/latch/internal/auth"
)

// githubDefinition: GitHub is OAuth 2.0 only. GET /user names the account
// (a numeric id, the login); GET /user/emails lists the addresses with their
// verification, and only the primary verified one counts as verified.
var githubDefinition = &Definition{
	Name:  GitHub,
	Title: "GitHub",
	Endpoints: Endpoints{
		AuthURL:   "https://github.com/login/oauth/authorize",
		TokenURL:  "https://github.com/login/oauth/access_token",
		UserURL:   "https://api.github.com/user",
		EmailsURL: "https://api.github.com/user/emails",
	},
	Scopes:  []string{"read:user", "user:email"},
	Profile: githubProfile,
}

func githubProfile(ctx context.Context, client *http.Client, ep Endpoints) (auth.SocialIdentity, error) {
	var u struct {
		ID    flexID `json:"id"`
		Login string `json:"login"`
		Name  string `json:"name"`
		Email string `json:"email"`
	}
	if err := getJSON(ctx, client, ep.UserURL, &u); err != nil {
		return auth.SocialIdentity{}, err
	}
	id := auth.SocialIdentity{Provider: GitHub, Subject: string(u.ID), Username: or(u.Login, u.Name), Email: u.Email}
	var emails []struct {
		Email    string `json:"email"`
		Primary  bool   `json:"primary"`
		Verified bool   `json:"verified"`
	}
	if err := getJSON(ctx, client, ep.EmailsURL, &emails); err != nil {
		return auth.SocialIdentity{}, err
	}
	for _, e := range emails {
		if e.Primary {
			id.Email, id.EmailVerified = e.Email, e.Verified
		}
	}
	return id, nil
}
