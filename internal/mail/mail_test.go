package mail_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/latchkit/latch/internal/i18n"
	"github.com/latchkit/latch/internal/mail"
	"github.com/latchkit/latch/internal/mail/smtptest"
	"github.com/latchkit/latch/internal/poll"
)

func testMessage(t *testing.T) mail.Message {
	t.Helper()
	tpl, err := mail.LoadTemplates("")
	if err != nil {
		t.Fatal(err)
	}
	msg, err := tpl.Render(mail.KindCode, "alice@example.com", mail.Data{Project: "Demo", Code: "123456", Minutes: 10})
	if err != nil {
		t.Fatal(err)
	}
	return msg
}

func newSMTP(t *testing.T, srv *smtptest.Server, rawURL string) *mail.SMTP {
	t.Helper()
	s, err := mail.NewSMTP(mail.SMTPConfig{URL: rawURL, From: "Latch <login@example.com>", TLSConfig: srv.RootCAs, Backoff: []time.Duration{time.Millisecond}, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSMTP_Send(t *testing.T) {
	t.Run("STARTTLSWithAuth", func(t *testing.T) {
		srv := smtptest.Start(t, smtptest.Options{User: "latch", Password: "s3cret"})
		s := newSMTP(t, srv, "smtp://latch:s3cret@"+srv.Addr)
		if err := s.Send(context.Background(), testMessage(t)); err != nil {
			t.Fatal(err)
		}
		got := srv.Received()
		if len(got) != 1 {
			t.Fatalf("received %d messages", len(got))
		}
		r := got[0]
		body := string(r.Data)
		if r.From != "login@example.com" || r.To != "alice@example.com" || r.User != "latch" {
			t.Errorf("envelope %q → %q as %q", r.From, r.To, r.User)
		}
		for _, want := range []string{"Subject: Your Demo login code: 123456", "text/plain", "text/html", "123456"} {
			if !strings.Contains(body, want) {
				t.Errorf("message lacks %q:\n%s", want, body)
			}
		}
	})
	t.Run("ImplicitTLS", func(t *testing.T) {
		srv := smtptest.Start(t, smtptest.Options{ImplicitTLS: true, User: "u", Password: "p"})
		if err := newSMTP(t, srv, "smtps://u:p@"+srv.Addr).Send(context.Background(), testMessage(t)); err != nil {
			t.Fatal(err)
		}
		if n := len(srv.Received()); n != 1 {
			t.Fatalf("received %d", n)
		}
	})
	t.Run("ErrNoSTARTTLS", func(t *testing.T) {
		// smtp:// requires STARTTLS: a server without it gets nothing.
		srv := smtptest.Start(t, smtptest.Options{NoTLS: true})
		if err := newSMTP(t, srv, "smtp://"+srv.Addr).Send(context.Background(), testMessage(t)); err == nil {
			t.Fatal("sent in clear text to a server without STARTTLS")
		}
		if srv.Attempts() != 0 {
			t.Fatal("the server got a message")
		}
	})
	t.Run("ErrUntrustedCertificate", func(t *testing.T) {
		srv := smtptest.Start(t, smtptest.Options{})
		s, err := mail.NewSMTP(mail.SMTPConfig{URL: "smtp://" + srv.Addr, From: "login@example.com", Attempts: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Send(context.Background(), testMessage(t)); err == nil {
			t.Fatal("sent to a server whose certificate is not trusted")
		}
	})
	t.Run("ErrWrongPassword", func(t *testing.T) {
		srv := smtptest.Start(t, smtptest.Options{User: "latch", Password: "s3cret"})
		if err := newSMTP(t, srv, "smtp://latch:wrong@"+srv.Addr).Send(context.Background(), testMessage(t)); err == nil {
			t.Fatal("sent with a wrong password")
		}
		if len(srv.Received()) != 0 {
			t.Fatal("delivered")
		}
	})
	t.Run("TemporaryFailureRetried", func(t *testing.T) {
		srv := smtptest.Start(t, smtptest.Options{Refuse: &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try later"}})
		err := newSMTP(t, srv, "smtp://"+srv.Addr).Send(context.Background(), testMessage(t))
		if err == nil {
			t.Fatal("a refused message was reported as sent")
		}
		if n := srv.Attempts(); n != 3 {
			t.Fatalf("%d attempts, want 3", n)
		}
	})
	t.Run("RecoversOnRetry", func(t *testing.T) {
		srv := smtptest.Start(t, smtptest.Options{Refuse: &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try later"}})
		s, err := mail.NewSMTP(mail.SMTPConfig{URL: "smtp://" + srv.Addr, From: "login@example.com", TLSConfig: srv.RootCAs, Backoff: []time.Duration{time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- s.Send(context.Background(), testMessage(t)) }()
		// The first attempt is refused; the retry comes 1 s later.
		poll.For(t, 5*time.Second, func() bool { return srv.Attempts() > 0 })
		srv.SetRefuse(nil)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if len(srv.Received()) != 1 {
			t.Fatal("not delivered on retry")
		}
	})
	t.Run("PermanentFailureNotRetried", func(t *testing.T) {
		srv := smtptest.Start(t, smtptest.Options{Refuse: &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}})
		if err := newSMTP(t, srv, "smtp://"+srv.Addr).Send(context.Background(), testMessage(t)); err == nil {
			t.Fatal("a refused message was reported as sent")
		}
		if n := srv.Attempts(); n != 1 {
			t.Fatalf("%d attempts, want 1", n)
		}
	})
}

func TestParseSMTPURL(t *testing.T) {
	for _, tt := range []struct {
		url      string
		port     int
		implicit bool
		err      string
	}{
		{url: "smtp://u:p@mail.example.com", port: 587},
		{url: "smtp://mail.example.com:2525", port: 2525},
		{url: "smtps://u:p@mail.example.com", port: 465, implicit: true},
		{url: "http://mail.example.com", err: "scheme"},
		{url: "smtp://u:hunter2@:25", err: "no host"},
		{url: "smtp://u:hunter2@mail.example.com:99999", err: "bad port"},
		{url: "smtp://mail.example.com/x", err: "no path"},
	} {
		t.Run(tt.url, func(t *testing.T) {
			_, port, implicit, err := mail.ParseSMTPURL(tt.url)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", err, tt.err)
				}
				if strings.Contains(err.Error(), "hunter2") {
					t.Fatalf("the error shows the password: %v", err)
				}
				return
			}
			if err != nil || port != tt.port || implicit != tt.implicit {
				t.Fatalf("port %d implicit %v err %v", port, implicit, err)
			}
		})
	}
	if _, err := mail.NewSMTP(mail.SMTPConfig{URL: "smtp://mail.example.com"}); err == nil || !strings.Contains(err.Error(), "--mail-from") {
		t.Errorf("no sender: %v", err)
	}
	if _, err := mail.NewSMTP(mail.SMTPConfig{URL: "smtp://mail.example.com", From: "not an address"}); err == nil {
		t.Error("a bad sender was accepted")
	}
}

func TestTemplates(t *testing.T) {
	t.Run("Defaults", func(t *testing.T) {
		tpl, err := mail.LoadTemplates("")
		if err != nil {
			t.Fatal(err)
		}
		msg, err := tpl.Render(mail.KindDevice, "a@example.com", mail.Data{Project: "<Demo>", Link: "https://frame.example/auth/v1/device/approve?token=abc&x=1", Minutes: 10})
		if err != nil {
			t.Fatal(err)
		}
		if msg.Subject != "Approve a new device for <Demo>" || !strings.Contains(msg.Text, "token=abc&x=1") || !strings.Contains(msg.HTML, "&lt;Demo&gt;") || !strings.Contains(msg.HTML, "token=abc&amp;x=1") {
			t.Fatalf("%+v", msg)
		}
		for _, kind := range mail.Kinds {
			if _, err := tpl.Render(kind, "a@example.com", mail.Data{Project: "P", Code: "000001", NewEmail: "b@example.com", Link: "https://x", Minutes: 10}); err != nil {
				t.Errorf("%s: %v", kind, err)
			}
		}
	})
	t.Run("Override", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "code.txt.tmpl"), []byte(`{{define "subject"}}Code {{.Code}}{{end}}Hello, your code is {{.Code}}.`), 0o600)
		tpl, err := mail.LoadTemplates(dir)
		if err != nil {
			t.Fatal(err)
		}
		msg, _ := tpl.Render(mail.KindCode, "a@example.com", mail.Data{Project: "P", Code: "654321", Minutes: 10})
		if msg.Subject != "Code 654321" || msg.Text != "Hello, your code is 654321." || !strings.Contains(msg.HTML, "letter-spacing") {
			t.Fatalf("%+v", msg)
		}
	})
	t.Run("ErrBadOverride", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "device.txt.tmpl"), []byte(`no subject {{.Link}}`), 0o600)
		if _, err := mail.LoadTemplates(dir); err == nil || !strings.Contains(err.Error(), "subject") {
			t.Fatalf("err %v", err)
		}
		os.WriteFile(filepath.Join(dir, "device.txt.tmpl"), []byte(`{{define "subject"}}x{{end}}{{.Link`), 0o600)
		if _, err := mail.LoadTemplates(dir); err == nil {
			t.Fatal("a template that does not parse was accepted")
		}
		if _, err := mail.LoadTemplates(filepath.Join(dir, "missing")); err == nil {
			t.Fatal("a missing directory was accepted")
		}
	})
}

func TestOutbox(t *testing.T) {
	o := mail.NewOutbox(2)
	for _, to := range []string{"a@x.io", "b@x.io", "a@x.io"} {
		o.Send(context.Background(), mail.Message{To: to, Subject: "s", Kind: mail.KindCode, Code: "1"})
	}
	all := o.List("")
	if len(all) != 2 || all[0].ID != "3" || all[1].ID != "2" {
		t.Fatalf("%+v", all)
	}
	if a := o.List("a@x.io"); len(a) != 1 || a[0].ID != "3" {
		t.Fatalf("%+v", a)
	}
}

func TestTemplates_Locale(t *testing.T) {
	tpl, err := mail.LoadTemplates("")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("German", func(t *testing.T) {
		msg, err := tpl.Render(mail.KindCode, "a@example.com", mail.Data{Project: "Demo", Code: "123456", Minutes: 10, Locale: "de"})
		if err != nil {
			t.Fatal(err)
		}
		if msg.Subject != "Ihr Anmeldecode für Demo: 123456" {
			t.Errorf("subject %q", msg.Subject)
		}
		if !strings.Contains(msg.Text, "Ihr Anmeldecode für Demo lautet:") || !strings.Contains(msg.Text, "Er läuft in 10 Minuten ab") || strings.Contains(msg.Text, "expires") {
			t.Errorf("text %q", msg.Text)
		}
		if !strings.Contains(msg.HTML, `<html lang="de" dir="ltr">`) || !strings.Contains(msg.HTML, "Ohne den Code kann sich niemand anmelden.") {
			t.Errorf("html %q", msg.HTML)
		}
	})
	t.Run("RightToLeft", func(t *testing.T) {
		msg, _ := tpl.Render(mail.KindDevice, "a@example.com", mail.Data{Project: "<Demo>", Link: "https://frame.example/x?token=a&locale=ar", Minutes: 10, Locale: "ar"})
		if !strings.Contains(msg.HTML, `<html lang="ar" dir="rtl">`) || !strings.Contains(msg.HTML, "الموافقة على هذا الجهاز") || !strings.Contains(msg.HTML, "&lt;Demo&gt;") {
			t.Errorf("html %q", msg.HTML)
		}
	})
	t.Run("EveryLocale", func(t *testing.T) {
		for _, l := range i18n.Locales {
			for _, kind := range mail.Kinds {
				msg, err := tpl.Render(kind, "a@example.com", mail.Data{Project: "P", Code: "000001", NewEmail: "b@example.com", Link: "https://x", Minutes: 10, Locale: l})
				if err != nil || strings.Contains(msg.Text, "{") || !strings.Contains(msg.HTML, `lang="`+l+`" dir="`+i18n.Dir(l)+`"`) {
					t.Errorf("%s %s: %v %q", l, kind, err, msg.Text)
				}
			}
		}
	})
	t.Run("BadLocaleIsEnglish", func(t *testing.T) {
		for _, l := range []string{"", "xx", "<script>"} {
			msg, err := tpl.Render(mail.KindCode, "a@example.com", mail.Data{Project: "P", Code: "000001", Minutes: 10, Locale: l})
			if err != nil || msg.Subject != "Your P login code: 000001" || !strings.Contains(msg.HTML, `lang="en"`) {
				t.Errorf("%q: %v %q", l, err, msg.Subject)
			}
		}
	})
	t.Run("OperatorLocaleFile", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "code.txt.tmpl"), []byte(`{{define "subject"}}Code {{.Code}}{{end}}Your code is {{.Code}}.`), 0o600)
		os.WriteFile(filepath.Join(dir, "code.fr.txt.tmpl"), []byte(`{{define "subject"}}Code {{.Code}}{{end}}Votre code est {{.Code}}.`), 0o600)
		os.WriteFile(filepath.Join(dir, "code.fr.html.tmpl"), []byte(`<p>Code {{.Code}} ({{.T "mail.code.intro"}})</p>`), 0o600)
		tpl, err := mail.LoadTemplates(dir)
		if err != nil {
			t.Fatal(err)
		}
		fr, _ := tpl.Render(mail.KindCode, "a@example.com", mail.Data{Project: "P", Code: "1", Minutes: 10, Locale: "fr-CA"})
		if fr.Text != "Votre code est 1." || fr.HTML != "<p>Code 1 (Votre code de connexion pour P est :)</p>" {
			t.Errorf("fr %+v", fr)
		}
		// German has no file of its own: the operator's single text file, the built-in HTML in German.
		de, _ := tpl.Render(mail.KindCode, "a@example.com", mail.Data{Project: "P", Code: "1", Minutes: 10, Locale: "de"})
		if de.Text != "Your code is 1." || !strings.Contains(de.HTML, `lang="de"`) {
			t.Errorf("de %+v", de)
		}
		os.WriteFile(filepath.Join(dir, "code.de.txt.tmpl"), []byte(`no subject`), 0o600)
		if _, err := mail.LoadTemplates(dir); err == nil || !strings.Contains(err.Error(), "code.de.txt.tmpl") {
			t.Errorf("a bad locale file: %v", err)
		}
	})
}
