package app_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/app"
	"github.com/latchkit/latch/internal/devchain"
	"github.com/latchkit/latch/internal/social"
	"github.com/latchkit/latch/internal/store/storetest"
	"github.com/latchkit/latch/pkg/siwx"
)

// callFarcaster walks Sign In With Farcaster through its routes on latchd
// dev (the dev chains' ID registry): the frame opens a channel, a scripted
// Farcaster client signs with the dev custody key and posts to the relay the
// URI names, the frame polls and connects; with refusals on the way.
func callFarcaster(t *testing.T, c *contract, bases map[string]string, pid string) {
	const device = "openapi-farcaster-dev-01"
	const page = "http://localhost:5173"
	post := func(path, body string, hdr ...string) (int, map[string]any) {
		t.Helper()
		status, _, b := c.do(t, bases, call{op: "POST " + path, url: path + "?" + pid, body: body, hdr: append(hdr, "Origin", page)})
		var v map[string]any
		json.Unmarshal(b, &v)
		return status, v
	}
	verifier, challenge := pkce()
	if st, v := post(social.FarcasterChannelPath, `{"deviceId":"`+device+`","codeChallenge":"short","parentOrigin":"`+page+`"}`); st != 400 {
		t.Fatalf("bad challenge: %d %v", st, v)
	}
	st, ch := post(social.FarcasterChannelPath, `{"deviceId":"`+device+`","codeChallenge":"`+challenge+`","parentOrigin":"`+page+`"}`)
	uri, _ := ch["url"].(string)
	token, _ := ch["channelToken"].(string)
	if st != 200 || !strings.HasPrefix(uri, "farcaster://connect?") {
		t.Fatalf("channel: %d %v", st, ch)
	}
	status := func() string {
		st, v := post(social.FarcasterStatusPath, `{"channelToken":"`+token+`","deviceId":"`+device+`"}`)
		if st != 200 {
			t.Fatalf("status: %d %v", st, v)
		}
		return v["state"].(string)
	}
	if s := status(); s != "pending" {
		t.Fatalf("status %q before the client", s)
	}
	post(social.FarcasterStatusPath, `{"channelToken":"made-up","deviceId":"`+device+`"}`)
	if st, v := post(social.FarcasterConnectPath, `{"channelToken":"`+token+`","codeVerifier":"`+verifier+`","deviceId":"`+device+`"}`); st != 400 || !strings.Contains(c.reason(v), social.MsgChannelPending) {
		t.Fatalf("connect before the client: %d %v", st, v)
	}

	u, _ := url.Parse(uri)
	q := u.Query()
	relay, err := url.Parse(q.Get("relay"))
	if err != nil || relay.Path != social.FarcasterRelayPath || !strings.HasPrefix(q.Get("relay"), bases[""]) {
		t.Fatalf("relay %q", q.Get("relay"))
	}
	sign := func(key []byte) string {
		m := &siwx.Message{Domain: q.Get("domain"), Namespace: siwx.EIP155, Statement: "Farcaster Auth", URI: q.Get("siweUri"), Version: "1",
			ChainID: "eip155:" + q.Get("chainId"), Nonce: q.Get("nonce"), IssuedAt: time.Now().UTC().Truncate(time.Second),
			Resources: []string{"farcaster://fid/" + strconv.Itoa(devchain.DevFarcasterFID)}}
		k, _ := crypto.ToECDSA(key)
		m.Address = crypto.PubkeyToAddress(k.PublicKey).Hex()
		text := m.String()
		sig, _ := crypto.Sign(accounts.TextHash([]byte(text)), k)
		sig[64] += 27
		b, _ := json.Marshal(map[string]any{"message": text, "signature": hexutil.Encode(sig), "fid": devchain.DevFarcasterFID, "username": devchain.DevFarcasterUsername})
		return string(b)
	}
	client := func(body string) (int, map[string]any) {
		status, _, b := c.do(t, bases, call{op: "POST " + social.FarcasterRelayPath, url: social.FarcasterRelayPath, body: body, hdr: []string{"Authorization", "Bearer " + token}})
		var v map[string]any
		json.Unmarshal(b, &v)
		return status, v
	}
	other, _ := crypto.GenerateKey()
	if st, v := client(sign(crypto.FromECDSA(other))); st != 401 || !strings.Contains(c.reason(v), "is not signed by the custody address") {
		t.Fatalf("another key: %d %v", st, v)
	}
	if st, v := client(sign(crypto.FromECDSA(devchain.DevFarcasterCustodyKey()))); st != 200 || v["state"] != "completed" {
		t.Fatalf("the custody key: %d %v", st, v)
	}
	if s := status(); s != "completed" {
		t.Fatalf("status %q after the client", s)
	}
	st, res := post(social.FarcasterConnectPath, `{"channelToken":"`+token+`","codeVerifier":"`+verifier+`","deviceId":"`+device+`"}`)
	if st != 200 || res["provider"] != "farcaster" || res["username"] != devchain.DevFarcasterUsername {
		t.Fatalf("connect: %d %v", st, res)
	}
}

// latchd serve offers Farcaster only with an ID registry on a network it
// has upstreams for; without one a channel is refused with the flags' names.
func TestFarcaster_Serve(t *testing.T) {
	run := func(fc app.FarcasterConfig) (*app.Main, error) {
		// An Optimism upstream that nothing here calls (no sign-in completes).
		cfg := app.Config{Addr: "127.0.0.1:0", FrameAddr: "127.0.0.1:0", DataDir: storetest.SQLiteDir(t), ShutdownTimeout: 5 * time.Second, RPCUpstreams: []string{"eip155:10=http://127.0.0.1:9"},
			Auth: app.AuthConfig{Secret: strings.Repeat("s", 32), KEK: "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", RecoveryKey: "r1:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=", SMTPURL: "smtp://127.0.0.1:1", MailFrom: "a@b.example"}}
		cfg.Social.Farcaster = fc
		m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		err := m.Run(context.Background())
		if err == nil {
			t.Cleanup(func() { m.Close() })
		}
		return m, err
	}
	off, err := run(app.FarcasterConfig{})
	if err != nil {
		t.Fatal(err)
	}
	p := createProject(t, off, "google,farcaster")
	if got := socialsOf(t, off, p); got != "email" {
		t.Fatalf("socials without a registry = %s, want email", got)
	}
	_, challenge := pkce()
	req, _ := http.NewRequest(http.MethodPost, off.APIURL()+social.FarcasterChannelPath+"?projectId="+p, strings.NewReader(`{"deviceId":"serve-farcaster-device-01","codeChallenge":"`+challenge+`","parentOrigin":"https://shop.example"}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "set --farcaster-id-registry and --farcaster-network") {
		t.Fatalf("channel without a registry: %d %s", res.StatusCode, body)
	}

	on, err := run(app.FarcasterConfig{IDRegistry: "0x00000000Fc6c5F01Fc30151999387Bb99A9f489b", Network: "eip155:10"})
	if err != nil {
		t.Fatal(err)
	}
	if got := socialsOf(t, on, createProject(t, on, "google,farcaster,github")); got != "email,farcaster" {
		t.Fatalf("socials with a registry = %s, want email,farcaster (google and github have no credentials)", got)
	}
	if got := socialsOf(t, on, createProject(t, on, "google")); got != "email" {
		t.Fatalf("socials of a project without farcaster = %s, want email", got)
	}

	if _, err := run(app.FarcasterConfig{IDRegistry: "0x00000000Fc6c5F01Fc30151999387Bb99A9f489b", Network: "eip155:987654321"}); err == nil || !strings.Contains(err.Error(), "no RPC upstream for this network") {
		t.Fatalf("a network without upstreams: %v", err)
	}
}

func TestFarcaster_Flags(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--farcaster-id-registry", "0x00000000Fc6c5F01Fc30151999387Bb99A9f489b"}, "--farcaster-id-registry and --farcaster-network go together"},
		{[]string{"--farcaster-network", "eip155:10"}, "--farcaster-id-registry and --farcaster-network go together"},
		{[]string{"--farcaster-id-registry", "idregistry.eth", "--farcaster-network", "eip155:10"}, "is not a 0x address"},
		{[]string{"--farcaster-id-registry", "0x00000000Fc6c5F01Fc30151999387Bb99A9f489b", "--farcaster-network", "solana:mainnet"}, "must be an EVM network"},
	} {
		var out, errOut strings.Builder
		code := app.CLI(context.Background(), append([]string{"serve", "--data-dir", dir}, tc.args...), &out, &errOut)
		if code == 0 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", tc.args, code, errOut.String(), tc.want)
		}
	}
}
