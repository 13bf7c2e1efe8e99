package mail

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	texttemplate "text/template"

	"github.com/latchkit/latch/internal/i18n"
)

//go:embed templates/*.tmpl
var defaultTemplates embed.FS

// Kinds lists every kind of message; each has <kind>.txt.tmpl and
// <kind>.html.tmpl templates.
var Kinds = []string{KindCode, KindDevice, KindEmailChange}

// Data is what the templates are given.
type Data struct {
	Project  string // the project's name
	Code     string // the code (code and email-change)
	Link     string // the approval link (device)
	NewEmail string // the new address (email-change)
	Minutes  int    // how long the code or link is valid
	// Locale is the visitor's locale (one of i18n.Locales; Render matches
	// anything else): the widget's, sent with the request that caused the mail.
	Locale string
}

// T is the server catalogue's string key (internal/i18n) in the message's
// locale, its placeholders {project}, {code}, {link}, {email} and {minutes}
// filled from d. The built-in templates are written with it; an operator's
// template may use it too: {{.T "mail.code.intro"}}.
func (d Data) T(key string) string {
	return i18n.T(d.Locale, i18n.Key(key), "project", d.Project, "code", d.Code, "link", d.Link, "email", d.NewEmail, "minutes", strconv.Itoa(d.Minutes))
}

// Dir is the writing direction of the message's locale, "ltr" or "rtl"
// (for the HTML's dir attribute).
func (d Data) Dir() string { return i18n.Dir(d.Locale) }

// Templates renders messages: a plain-text and an HTML template per kind,
// and per kind and locale where the operator wrote one. The text template
// defines "subject".
type Templates struct {
	text map[string]*texttemplate.Template // by kind, or kind.locale
	html map[string]*htmltemplate.Template
}

// LoadTemplates parses the built-in templates, replacing each with the file
// of the same name in dir when dir (--mail-templates) has one. dir may also
// hold a kind's templates in one locale, <kind>.<locale>.txt.tmpl and
// <kind>.<locale>.html.tmpl (locale as in i18n.Locales, e.g.
// code.de.txt.tmpl): a message in that locale uses them instead. A file that
// does not parse, or a text template without a "subject", is an error.
func LoadTemplates(dir string) (*Templates, error) {
	t := &Templates{text: map[string]*texttemplate.Template{}, html: map[string]*htmltemplate.Template{}}
	if dir != "" {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("mail templates: %s is not a directory", dir)
		}
	}
	read := func(name string) (string, error) {
		if dir != "" {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err == nil {
				return string(b), nil
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
		}
		b, err := defaultTemplates.ReadFile("templates/" + name)
		return string(b), err
	}
	parse := func(name, src string) error {
		if strings.HasSuffix(name, ".txt.tmpl") {
			tt, err := texttemplate.New(name).Option("missingkey=error").Parse(src)
			if err != nil {
				return fmt.Errorf("mail template %s: %w", name, err)
			}
			if tt.Lookup("subject") == nil {
				return fmt.Errorf("mail template %s: no {{define \"subject\"}}", name)
			}
			t.text[strings.TrimSuffix(name, ".txt.tmpl")] = tt
			return nil
		}
		ht, err := htmltemplate.New(name).Option("missingkey=error").Parse(src)
		if err != nil {
			return fmt.Errorf("mail template %s: %w", name, err)
		}
		t.html[strings.TrimSuffix(name, ".html.tmpl")] = ht
		return nil
	}
	for _, kind := range Kinds {
		for _, ext := range []string{".txt.tmpl", ".html.tmpl"} {
			src, err := read(kind + ext)
			if err != nil {
				return nil, err
			}
			if err := parse(kind+ext, src); err != nil {
				return nil, err
			}
			if dir == "" {
				continue
			}
			for _, locale := range i18n.Locales {
				name := kind + "." + locale + ext
				b, err := os.ReadFile(filepath.Join(dir, name))
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				if err != nil {
					return nil, err
				}
				if err := parse(name, string(b)); err != nil {
					return nil, err
				}
			}
		}
	}
	return t, nil
}

// Render makes the message of kind for the address to, in d.Locale (matched
// by i18n.Match: English when it is none Latch ships): the operator's
// templates of that locale when there are, else the kind's templates.
func (t *Templates) Render(kind, to string, d Data) (Message, error) {
	d.Locale = i18n.Match(d.Locale)
	tt, ok := t.text[kind]
	if !ok {
		return Message{}, fmt.Errorf("mail: no templates for %q", kind)
	}
	ht := t.html[kind]
	if lt, ok := t.text[kind+"."+d.Locale]; ok {
		tt = lt
	}
	if lh, ok := t.html[kind+"."+d.Locale]; ok {
		ht = lh
	}
	var subject, text, html bytes.Buffer
	if err := tt.ExecuteTemplate(&subject, "subject", d); err != nil {
		return Message{}, err
	}
	if err := tt.Execute(&text, d); err != nil {
		return Message{}, err
	}
	if err := ht.Execute(&html, d); err != nil {
		return Message{}, err
	}
	return Message{
		To: to, Subject: strings.Join(strings.Fields(subject.String()), " "), Text: text.String(), HTML: html.String(),
		Kind: kind, Code: d.Code, Link: d.Link,
	}, nil
}
