package social

import (
	"context"
	"net/http"

	"github.com/latchkit/latch/internal/auth"
)

// discordDefinition: Discord is OAuth 2.0 only; GET /users/@me has the
// account id, the username, the e-mail and whether Discord verified it.
var discordDefinition = &Definition{
	Name:  Discord,
	Title: "Discord",
	Endpoints: Endpoints{
		AuthURL:  "https://discord.com/oauth2/authorize",
		TokenURL: "https://discord.com/api/oauth2/token",
		UserURL:  "https://discord.com/api/users/@me",
	},
	Scopes:  []string{"identify", "email"},
	Profile: discordProfile,
}

func discordProfile(ctx context.Context, client *http.Client, ep Endpoints) (auth.SocialIdentity, error) {
	var u struct {
		ID         flexID `json:"id"`
		Username   string `json:"username"`
		GlobalName string `json:"global_name"`
		Email      string `json:"email"`
		Verified   bool   `json:"verified"`
	}
	if err := getJSON(ctx, client, ep.UserURL, &u); err != nil {
		return auth.SocialIdentity{}, err
	}
	return auth.SocialIdentity{Provider: Discord, Subject: string(u.ID), Username: or(u.Username, u.GlobalName), Email: u.Email, EmailVerified: u.Verified}, nil
}
