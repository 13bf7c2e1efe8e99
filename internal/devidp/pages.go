package devidp

import (
	"crypto/rand"
	"encoding/base64"
	"html/template"
	"net/http"

	"github.com/latchkit/latch/internal/i18n"
)

// pageHeaders keep the pages out of caches and frames; nonce, when the page
// has a script, is its only allowed script.
func pageHeaders(w http.ResponseWriter, _ string) string {
	b := make([]byte, 16)
	rand.Read(b)
	nonce := base64.StdEncoding.EncodeToString(b)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-"+nonce+"'; form-action http://127.0.0.1:* http://localhost:* 'self'; base-uri 'none'; frame-ancestors 'none'")
	return nonce
}

// text is the pages' text in one locale, for the templates: {{.T.T key
// value}} is key's string with its one placeholder ({provider} or {error})
// replaced by value ("" for a key without one).
type text struct{ i18n.Printer }

// T is key's string with its placeholder, if any, filled with value.
func (t text) T(key, value string) string {
	return t.Printer.T(i18n.Key(key), "provider", value, "error", value)
}

// pageText is the pages' text in the request's locale: a locale parameter,
// else the browser's languages (the provider's authorization URL is built
// by the social login, which carries none).
func pageText(r *http.Request) text {
	return text{i18n.For(i18n.FromRequest(r, ""))}
}

// The hidden fields of an authorization request, repeated in each form.
const hiddenFields = `{{define "hidden"}}{{range $k, $v := .Query}}{{if ne $k "user"}}<input type="hidden" name="{{$k}}" value="{{index $v 0}}">{{end}}{{end}}{{end}}`

var authorizePage = template.Must(template.New("authorize").Parse(hiddenFields + `<!doctype html>
<html lang="{{.T.Locale}}" dir="{{.T.Dir}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>{{.T.T "devidp.title" .Title}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:30rem;color:#111;padding:0 1rem}
.banner{background:#fff3cd;border:1px solid #e0c36c;border-radius:6px;padding:.75rem 1rem;margin-bottom:1.5rem}
button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #888;background:#fafafa;cursor:pointer;width:100%;text-align:left;margin:.25rem 0}
fieldset{border:1px solid #ccc;border-radius:6px;margin-top:1.5rem}label{display:block;margin:.5rem 0}input[type=text],input[type=email]{width:100%;font:inherit;padding:.3rem}
.err{color:#a00}
</style></head>
<body>
<div class="banner" data-testid="devidp-banner"><strong>{{.T.T "devidp.bannerTitle" ""}}</strong><br>
{{.T.T "devidp.banner" .Title}}</div>
{{if .Error}}<p class="err" data-testid="devidp-error">{{.T.T "devidp.error" .Error}}</p>{{else}}
<h1>{{.T.T "devidp.heading" .Title}}</h1>
{{range .Users}}<form method="post" action="{{$.Action}}">{{template "hidden" $}}<input type="hidden" name="user" value="{{.Subject}}">
<button type="submit" data-testid="devidp-user-{{.Subject}}"><strong>{{.Name}}</strong><br><small>{{if .Email}}{{.Email}} · {{if .EmailVerified}}{{$.T.T "devidp.verified" ""}}{{else}}{{$.T.T "devidp.unverified" ""}}{{end}}{{else}}{{$.T.T "devidp.noEmail" ""}}{{end}}</small></button></form>
{{end}}
<form method="post" action="{{.Action}}">{{template "hidden" .}}
<fieldset><legend>{{.T.T "devidp.another" ""}}</legend>
<label>{{.T.T "devidp.name" ""}} <input type="text" name="name" data-testid="devidp-name"></label>
<label>{{.T.T "devidp.email" ""}} <input type="email" name="email" data-testid="devidp-email"></label>
<label><input type="checkbox" name="verified" value="1" data-testid="devidp-verified"> {{.T.T "devidp.verifiedBox" ""}}</label>
<button type="submit" data-testid="devidp-custom">{{.T.T "devidp.custom" ""}}</button></fieldset></form>
<form method="post" action="{{.Action}}">{{template "hidden" .}}<input type="hidden" name="deny" value="1"><button type="submit" data-testid="devidp-deny">{{.T.T "devidp.deny" ""}}</button></form>
{{end}}
</body></html>
`))

var formPostPage = template.Must(template.New("formpost").Parse(`<!doctype html>
<html lang="{{.T.Locale}}" dir="{{.T.Dir}}"><head><meta charset="utf-8"><title>{{.T.T "devidp.returning" ""}}</title></head>
<body><form method="post" action="{{.Action}}" id="f">{{range $k, $v := .Fields}}<input type="hidden" name="{{$k}}" value="{{index $v 0}}">{{end}}
<noscript><button type="submit">{{.T.T "devidp.continue" ""}}</button></noscript></form>
<script nonce="{{.Nonce}}">document.getElementById('f').submit()</script>
</body></html>
`))
