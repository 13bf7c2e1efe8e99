package social_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/devchain"
	"github.com/latchkit/latch/internal/devnet"
	"github.com/latchkit/latch/internal/evm"
	internalsiwx "github.com/latchkit/latch/internal/siwx"
	"github.com/latchkit/latch/internal/social"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
	"github.com/latchkit/latch/pkg/siwx"
)

const farcasterChainID = 31337

// The dev chain with the dev ID registry, shared by the Farcaster tests.
var (
	fcChainOnce sync.Once
	fcChain     *social.FarcasterConfig
	fcChainErr  error
)

func farcasterRegistry(t *testing.T) social.FarcasterConfig {
	t.Helper()
	fcChainOnce.Do(func() {
		d, err := devnet.Start(context.Background(), devnet.Config{ChainIDs: []uint64{farcasterChainID}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			fcChainErr = err
			return
		}
		c := d.Chains()[0]
		client, err := evm.NewClient([]string{c.RPCURL})
		if err != nil {
			fcChainErr = err
			return
		}
		fcChain = &social.FarcasterConfig{Network: c.CAIPNetworkID, Registry: c.FarcasterIDRegistry, Caller: internalsiwx.EVMCaller{Client: client}}
	})
	if fcChainErr != nil {
		t.Fatal(fcChainErr)
	}
	return *fcChain
}

// fcEnv is env with Farcaster on, its relay served over HTTP.
type fcEnv struct {
	*env
	relay *httptest.Server
}

func newFarcasterEnv(t *testing.T, db *store.DB) *fcEnv {
	t.Helper()
	e := &fcEnv{env: newEnv(t, db)}
	e.p.Features.Socials = append(e.p.Features.Socials, social.Farcaster)
	fc := farcasterRegistry(t)
	mux := http.NewServeMux()
	e.relay = httptest.NewServer(mux)
	t.Cleanup(e.relay.Close)
	fc.RelayURL = func() string { return e.relay.URL }
	var err error
	e.svc, err = social.New(social.Config{
		DB: db, Auth: e.auth, FrameURL: func() string { return frameURL }, Now: e.clock.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Credentials: func(string, string) (social.Credentials, bool) { return social.Credentials{}, false },
		Farcaster:   &fc,
	})
	if err != nil {
		t.Fatal(err)
	}
	mux.HandleFunc("POST "+social.FarcasterRelayPath, social.NewHandler(e.svc, func(*http.Request) string { return "192.0.2.9" }).FarcasterAuthenticate)
	return e
}

// fcLogin is a channel the frame opened, with the verifier it keeps.
type fcLogin struct {
	device, verifier string
	ch               *social.Channel
}

func (e *fcEnv) open() fcLogin {
	e.t.Helper()
	l := fcLogin{device: newDevice(), verifier: newVerifier()}
	var err error
	l.ch, err = e.svc.CreateChannel(context.Background(), social.ChannelRequest{Project: e.p, DeviceID: l.device, CodeChallenge: challenge(l.verifier), ParentOrigin: pageOrigin, IP: "192.0.2.1"})
	if err != nil {
		e.t.Fatalf("channel: %v", err)
	}
	return l
}

// farcasterClient is a scripted Farcaster client: it reads the channel URI
// the QR code shows, writes the Sign In With Farcaster message for fid, signs
// it with key and posts it to the relay the URI names. edit may change the
// message before it is signed. It returns the relay's status and message.
func farcasterClient(t *testing.T, uri string, key *ecdsa.PrivateKey, fid uint64, edit func(*siwx.Message)) (int, string) {
	t.Helper()
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "farcaster" || u.Host != "connect" {
		t.Fatalf("channel URI %q", uri)
	}
	q := u.Query()
	parse := func(k string) *time.Time {
		v, err := time.Parse(time.RFC3339, q.Get(k))
		if err != nil {
			t.Fatalf("%s %q", k, q.Get(k))
		}
		return &v
	}
	m := &siwx.Message{
		Domain: q.Get("domain"), Namespace: siwx.EIP155, Address: crypto.PubkeyToAddress(key.PublicKey).Hex(),
		Statement: "Farcaster Auth", URI: q.Get("siweUri"), Version: "1", ChainID: "eip155:" + q.Get("chainId"),
		Nonce: q.Get("nonce"), IssuedAt: time.Now().UTC().Truncate(time.Second),
		ExpirationTime: parse("expirationTime"), NotBefore: parse("notBefore"),
		Resources: []string{"farcaster://fid/" + strconv.FormatUint(fid, 10)},
	}
	if edit != nil {
		edit(m)
	}
	text := m.String()
	sig, err := crypto.Sign(accounts.TextHash([]byte(text)), key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	body, _ := json.Marshal(map[string]any{"message": text, "signature": hexutil.Encode(sig), "fid": fid, "username": "latch-dev", "displayName": "Dev", "bio": "", "pfpUrl": ""})
	req, _ := http.NewRequest(http.MethodPost, q.Get("relay"), bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+q.Get("channelToken"))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		State   string `json:"state"`
		Reasons []struct {
			Description string `json:"description"`
		} `json:"reasons"`
	}
	json.NewDecoder(res.Body).Decode(&out)
	if len(out.Reasons) > 0 {
		return res.StatusCode, out.Reasons[0].Description
	}
	return res.StatusCode, out.State
}

func (e *fcEnv) status(l fcLogin) string {
	e.t.Helper()
	st, err := e.svc.ChannelStatus(context.Background(), e.p, l.ch.ChannelToken, l.device, "192.0.2.1")
	if err != nil {
		e.t.Fatalf("status: %v", err)
	}
	return st.State
}

func (e *fcEnv) connectFC(l fcLogin) (*social.ConnectResult, error) {
	return e.svc.ConnectFarcaster(context.Background(), social.FarcasterConnectRequest{Project: e.p, ChannelToken: l.ch.ChannelToken, CodeVerifier: l.verifier, DeviceID: l.device, IP: "192.0.2.1"})
}

func (e *fcEnv) farcasterNothingStored() {
	e.t.Helper()
	e.nothingStored()
	var n int
	if err := e.db.QueryRow(context.Background(), `SELECT COUNT(*) FROM farcaster_channels WHERE project_id = ? AND completed_at IS NOT NULL`, e.p.ID).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	if n != 0 {
		e.t.Fatalf("%d channels completed by a refused message", n)
	}
}

var custody = devchain.DevFarcasterCustodyKey

func TestFarcaster_Login(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newFarcasterEnv(t, db)
		l := e.open()
		if !strings.HasPrefix(l.ch.URL, "farcaster://connect?") {
			t.Fatalf("URL %q", l.ch.URL)
		}
		if got := e.status(l); got != "pending" {
			t.Fatalf("status before the client: %q", got)
		}
		if _, err := e.connectFC(l); err == nil || !strings.Contains(err.Error(), social.MsgChannelPending) {
			t.Fatalf("connect before the client: %v", err)
		}
		if code, msg := farcasterClient(t, l.ch.URL, custody(), devchain.DevFarcasterFID, nil); code != http.StatusOK || msg != "completed" {
			t.Fatalf("client: %d %s", code, msg)
		}
		if got := e.status(l); got != "completed" {
			t.Fatalf("status after the client: %q", got)
		}
		res, err := e.connectFC(l)
		if err != nil {
			t.Fatal(err)
		}
		if res.Provider != social.Farcaster || res.Username != "latch-dev" || res.Session.AccessToken == "" || res.Session.User.Email != "" {
			t.Fatalf("connect: %+v", res)
		}
		// Spent once.
		_, err = e.connectFC(l)
		wantMessage(t, err, social.MsgChannelUsed)
		// The same fid on another device reaches the same account.
		l2 := e.open()
		if code, msg := farcasterClient(t, l2.ch.URL, custody(), devchain.DevFarcasterFID, nil); code != http.StatusOK {
			t.Fatalf("client: %d %s", code, msg)
		}
		res2, err := e.connectFC(l2)
		if err != nil {
			t.Fatal(err)
		}
		if res2.Session.User.ID != res.Session.User.ID {
			t.Fatalf("second login user %s, want %s", res2.Session.User.ID, res.Session.User.ID)
		}
	})
}

func TestFarcaster_Refused(t *testing.T) {
	e := newFarcasterEnv(t, storetest.MustOpenSQLite(t))
	other, _ := crypto.GenerateKey()
	cases := []struct {
		name string
		key  *ecdsa.PrivateKey
		fid  uint64
		edit func(*siwx.Message)
		code int
		want string
	}{
		{"AnotherKey", other, devchain.DevFarcasterFID, nil, http.StatusUnauthorized, fmt.Sprintf(social.MsgFarcasterNotCustody, devchain.DevFarcasterFID)},
		{"SignatureNotTheAddress", other, devchain.DevFarcasterFID, func(m *siwx.Message) { m.Address = crypto.PubkeyToAddress(custody().PublicKey).Hex() }, http.StatusUnauthorized, "Signature is not"},
		{"UnregisteredFID", custody(), 999, nil, http.StatusUnauthorized, fmt.Sprintf(social.MsgFarcasterNoFID, 999)},
		{"NoFIDResource", custody(), devchain.DevFarcasterFID, func(m *siwx.Message) { m.Resources = nil }, http.StatusBadRequest, social.MsgFarcasterResource},
		{"OtherDomain", custody(), devchain.DevFarcasterFID, func(m *siwx.Message) { m.Domain, m.URI = "evil.example", "https://evil.example" }, http.StatusBadRequest, "Domain evil.example is not allowed"},
		{"OtherNonce", custody(), devchain.DevFarcasterFID, func(m *siwx.Message) { m.Nonce = "replayed12345678" }, http.StatusBadRequest, "Nonce does not match"},
		{"OtherChain", custody(), devchain.DevFarcasterFID, func(m *siwx.Message) { m.ChainID = "eip155:10" }, http.StatusBadRequest, "Chain eip155:10 is not one"},
		{"ExpiredMessage", custody(), devchain.DevFarcasterFID, func(m *siwx.Message) {
			past := time.Now().Add(-time.Hour)
			m.ExpirationTime, m.NotBefore, m.IssuedAt = &past, nil, past.Add(-time.Minute)
		}, http.StatusBadRequest, "Message expired"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := e.open()
			code, msg := farcasterClient(t, l.ch.URL, c.key, c.fid, c.edit)
			if code != c.code || !strings.HasPrefix(msg, c.want) {
				t.Fatalf("client: %d %q, want %d %q", code, msg, c.code, c.want)
			}
			if got := e.status(l); got != "pending" {
				t.Fatalf("status after a refused message: %q", got)
			}
			e.farcasterNothingStored()
		})
	}
	t.Run("ReplayedNonce", func(t *testing.T) {
		// A message signed for one channel, posted to another: its nonce is not that channel's.
		a, b := e.open(), e.open()
		ua, _ := url.Parse(a.ch.URL)
		ub, _ := url.Parse(b.ch.URL)
		qa, qb := ua.Query(), ub.Query()
		qa.Set("channelToken", qb.Get("channelToken"))
		ua.RawQuery = qa.Encode()
		if code, msg := farcasterClient(t, ua.String(), custody(), devchain.DevFarcasterFID, nil); code != http.StatusBadRequest || !strings.HasPrefix(msg, "Nonce does not match") {
			t.Fatalf("replayed to another channel: %d %q", code, msg)
		}
		e.farcasterNothingStored()
		// A completed channel takes no second message.
		if code, _ := farcasterClient(t, a.ch.URL, custody(), devchain.DevFarcasterFID, nil); code != http.StatusOK {
			t.Fatal("first message refused")
		}
		if code, msg := farcasterClient(t, a.ch.URL, custody(), devchain.DevFarcasterFID, nil); code != http.StatusBadRequest || msg != social.MsgChannelCompleted {
			t.Fatalf("second message: %d %q", code, msg)
		}
	})
	t.Run("ExpiredChannel", func(t *testing.T) {
		e := newFarcasterEnv(t, storetest.MustOpenSQLite(t))
		l := e.open()
		e.clock.Add(social.ChannelTTL + time.Second)
		if code, msg := farcasterClient(t, l.ch.URL, custody(), devchain.DevFarcasterFID, func(m *siwx.Message) {
			m.ExpirationTime, m.NotBefore = nil, nil
		}); code != http.StatusBadRequest || msg != social.MsgChannelExpired {
			t.Fatalf("expired channel: %d %q", code, msg)
		}
		_, err := e.svc.ChannelStatus(context.Background(), e.p, l.ch.ChannelToken, l.device, "192.0.2.1")
		wantMessage(t, err, social.MsgChannelExpired)
		e.farcasterNothingStored()
	})
	t.Run("WrongVerifier", func(t *testing.T) {
		e := newFarcasterEnv(t, storetest.MustOpenSQLite(t))
		l := e.open()
		farcasterClient(t, l.ch.URL, custody(), devchain.DevFarcasterFID, nil)
		l.verifier = newVerifier()
		_, err := e.connectFC(l)
		wantMessage(t, err, social.MsgWrongVerifier)
		e.nothingStored()
	})
	t.Run("OtherDevice", func(t *testing.T) {
		l := e.open()
		farcasterClient(t, l.ch.URL, custody(), devchain.DevFarcasterFID, nil)
		l.device = newDevice()
		_, err := e.connectFC(l)
		wantMessage(t, err, "This Farcaster sign-in was started on another device")
	})
	t.Run("UnknownChannel", func(t *testing.T) {
		l := e.open()
		u, _ := url.Parse(l.ch.URL)
		q := u.Query()
		q.Set("channelToken", "made-up")
		u.RawQuery = q.Encode()
		if code, msg := farcasterClient(t, u.String(), custody(), devchain.DevFarcasterFID, nil); code != http.StatusUnauthorized || msg != social.MsgUnknownChannel {
			t.Fatalf("unknown channel: %d %q", code, msg)
		}
	})
	t.Run("OriginNotTheProjects", func(t *testing.T) {
		_, err := e.svc.CreateChannel(context.Background(), social.ChannelRequest{Project: e.p, DeviceID: newDevice(), CodeChallenge: challenge(newVerifier()), ParentOrigin: "https://evil.example", IP: "192.0.2.1"})
		wantMessage(t, err, "Origin not allowed")
	})
}

func TestFarcaster_Off(t *testing.T) {
	e := newEnv(t, storetest.MustOpenSQLite(t))
	e.p.Features.Socials = append(e.p.Features.Socials, social.Farcaster)
	req := social.ChannelRequest{Project: e.p, DeviceID: newDevice(), CodeChallenge: challenge(newVerifier()), ParentOrigin: pageOrigin}
	_, err := e.svc.CreateChannel(context.Background(), req)
	wantMessage(t, err, social.MsgFarcasterOff)
	if e.svc.FarcasterAvailable(e.p) {
		t.Fatal("Farcaster offered without a registry")
	}
	// With a registry, only a project that lists farcaster offers it.
	f := newFarcasterEnv(t, storetest.MustOpenSQLite(t))
	if !f.svc.FarcasterAvailable(f.p) {
		t.Fatal("Farcaster not offered")
	}
	f.p.Features.Socials = []string{"google"}
	req.Project = f.p
	_, err = f.svc.CreateChannel(context.Background(), req)
	wantMessage(t, err, social.MsgFarcasterNotEnabled)
}

func TestFarcaster_RateLimit(t *testing.T) {
	e := newFarcasterEnv(t, storetest.MustOpenSQLite(t))
	for i := 0; i < social.IPChannelLimit; i++ {
		e.open()
	}
	_, err := e.svc.CreateChannel(context.Background(), social.ChannelRequest{Project: e.p, DeviceID: newDevice(), CodeChallenge: challenge(newVerifier()), ParentOrigin: pageOrigin, IP: "192.0.2.1"})
	wantMessage(t, err, "Too many requests: Farcaster sign-ins per IP")
}
