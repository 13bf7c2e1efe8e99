package app_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/latchkit/latch/internal/app"
)

// The dev project offers e-mail login, swaps and the on-ramp, and a dev
// database whose dev project has them off (made before they existed) gets them
// back on the next start.
func TestMain_DevProjectEmailLogin(t *testing.T) {
	dir := t.TempDir()
	start := func() *app.Main {
		cfg := app.Config{Dev: true, Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: dir, DevChains: []uint64{31337}}
		m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err := m.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		return m
	}
	// E-mail first, then the socials the dev identity provider stands in for.
	emailOn := `"id":"social_login","isEnabled":true,"config":["email",`
	// Swaps (latchd's own AMM) and the on-ramp (the dev provider) are on too.
	swapsOn, onrampOn := `{"id":"swap","isEnabled":true,"config":["1inch"]}`, `{"id":"onramp","isEnabled":true,"config":["meld"]}`

	m := start()
	c := client{t: t, base: m.APIURL()}
	c.want(c.do("GET", "/appkit/v1/config?projectId="+m.DevProjectID, ""), 200, emailOn)
	c.want(c.do("GET", "/appkit/v1/config?projectId="+m.DevProjectID, ""), 200, swapsOn)
	c.want(c.do("GET", "/appkit/v1/config?projectId="+m.DevProjectID, ""), 200, onrampOn)
	p, err := m.Projects.FindDev(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p.Features.Email, p.Features.Swaps, p.Features.Onramp = false, nil, nil
	if err := m.Projects.Update(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	m.Close()

	m = start()
	defer m.Close()
	c = client{t: t, base: m.APIURL()}
	c.want(c.do("GET", "/appkit/v1/config?projectId="+m.DevProjectID, ""), 200, emailOn)
	c.want(c.do("GET", "/appkit/v1/config?projectId="+m.DevProjectID, ""), 200, swapsOn)
	c.want(c.do("GET", "/appkit/v1/config?projectId="+m.DevProjectID, ""), 200, onrampOn)
}
