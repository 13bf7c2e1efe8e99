package social

import (
	"context"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/latchkit/latch/internal/auth"
)

// xDefinition: X (Twitter) OAuth 2.0 with PKCE; a confidential client
// authenticates with HTTP Basic. GET /2/users/me has the id and the
// username; X gives no e-mail here, so an X login never links to an e-mail
// account.
var xDefinition = &Definition{
	Name:  X,
	Title: "X",
	Endpoints: Endpoints{
		AuthURL:   "https://x.com/i/oauth2/authorize",
		TokenURL:  "https://api.x.com/2/oauth2/token",
		UserURL:   "https://api.x.com/2/users/me",
		AuthStyle: oauth2.AuthStyleInHeader,
	},
	Scopes:  []string{"users.read", "tweet.read"},
	Profile: xProfile,
}

func xProfile(ctx context.Context, client *http.Client, ep Endpoints) (auth.SocialIdentity, error) {
	var u struct {
		Data struct {
			ID       flexID `json:"id"`
			Username string `json:"username"`
			Name     string `json:"name"`
		} `json:"data"`
	}
	if err := getJSON(ctx, client, ep.UserURL, &u); err != nil {
		return auth.SocialIdentity{}, err
	}
	return auth.SocialIdentity{Provider: X, Subject: string(u.Data.ID), Username: or(u.Data.Username, u.Data.Name)}, nil
}
