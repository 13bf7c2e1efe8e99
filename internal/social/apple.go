package social

// appleDefinition: Sign in with Apple is an OpenID Connect issuer. Asking
// for name and e-mail makes Apple post the callback as a form
// (response_mode=form_post); its ID token's email_verified may be the string
// "true". Apple's client secret is a JWT the operator signs with the
// Services ID's key (docs/social.md); latchd uses it as given.
var appleDefinition = &Definition{
	Name:       Apple,
	Title:      "Apple",
	Issuer:     "https://appleid.apple.com",
	Scopes:     []string{"openid", "name", "email"},
	AuthParams: map[string]string{"response_mode": "form_post"},
}
