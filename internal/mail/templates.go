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
	"strings"
	texttemplate "text/template"
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
}

// Templates renders messages: a plain-text and an HTML template per kind.
// The text template defines "subject".
type Templates struct {
	text map[string]*texttemplate.Template
	html map[string]*htmltemplate.Template
}

// LoadTemplates parses the built-in templates, replacing each with the file
// of the same name in dir when dir (--mail-templates) has one. A file that
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
	for _, kind := range Kinds {
		src, err := read(kind + ".txt.tmpl")
		if err != nil {
			return nil, err
		}
		tt, err := texttemplate.New(kind).Option("missingkey=error").Parse(src)
		if err != nil {
			return nil, fmt.Errorf("mail template %s.txt.tmpl: %w", kind, err)
		}
		if tt.Lookup("subject") == nil {
			return nil, fmt.Errorf("mail template %s.txt.tmpl: no {{define \"subject\"}}", kind)
		}
		if src, err = read(kind + ".html.tmpl"); err != nil {
			return nil, err
		}
		ht, err := htmltemplate.New(kind).Option("missingkey=error").Parse(src)
		if err != nil {
			return nil, fmt.Errorf("mail template %s.html.tmpl: %w", kind, err)
		}
		t.text[kind], t.html[kind] = tt, ht
	}
	return t, nil
}

// Render makes the message of kind for the address to.
func (t *Templates) Render(kind, to string, d Data) (Message, error) {
	tt, ok := t.text[kind]
	if !ok {
		return Message{}, fmt.Errorf("mail: no templates for %q", kind)
	}
	var subject, text, html bytes.Buffer
	if err := tt.ExecuteTemplate(&subject, "subject", d); err != nil {
		return Message{}, err
	}
	if err := tt.Execute(&text, d); err != nil {
		return Message{}, err
	}
	if err := t.html[kind].Execute(&html, d); err != nil {
		return Message{}, err
	}
	return Message{
		To: to, Subject: strings.Join(strings.Fields(subject.String()), " "), Text: text.String(), HTML: html.String(),
		Kind: kind, Code: d.Code, Link: d.Link,
	}, nil
}
