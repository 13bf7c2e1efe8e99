package social

// googleDefinition: Google is an OpenID Connect issuer; its ID token names
// the person and says whether Google verified the e-mail (email_verified).
var googleDefinition = &Definition{
	Name:   Google,
	Title:  "Google",
	Issuer: "https://accounts.google.com",
	Scopes: []string{"openid", "email", "profile"},
}
