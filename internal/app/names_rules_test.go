package app_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/app"
)

// The rules that keep names from being squatted in bulk (docs/names.md),
// through a running latchd dev: the e-mail wallet's session, the daily
// limits, the reserved names and the look-alikes. These tests speak HTTP
// and the CLI only, so they run against any latchd.

// spec §5's refusal of a registration without the auth connector.
const addressNotFound = "Address or auth connector not found"

// runNamesMain starts latchd dev on one dev chain with the flags args, in a
// new data directory unless args name one.
func runNamesMain(t *testing.T, args ...string) *app.Main {
	t.Helper()
	cfg, err := app.ParseConfig(args, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Dev, cfg.Addr, cfg.FrameAddr, cfg.AdminAddr = true, "127.0.0.1:0", "127.0.0.1:0", ""
	if !strings.Contains(strings.Join(args, " "), "--data-dir") {
		cfg.DataDir = t.TempDir()
	}
	cfg.DevChains, cfg.ShutdownTimeout = []uint64{31337}, 5*time.Second
	m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// devSessions numbers devSession's devices.
var devSessions atomic.Int64

// devSession logs email in to the dev project's e-mail wallet as the frame
// does (a new device: the approval link, then the code, both from the dev
// outbox) and returns the session's Authorization header.
func devSession(t *testing.T, m *app.Main, email string) []string {
	t.Helper()
	c := client{t, m.APIURL()}
	pid := "?projectId=" + m.DevProjectID
	// A device of its own each time: a device may start 10 logins an hour, and the tests log in more often.
	device := fmt.Sprintf("names-device-%012x", devSessions.Add(1))
	outbox := func() map[string]any {
		t.Helper()
		var box struct{ Messages []map[string]any }
		c.do("GET", "/dev/outbox?to="+url.QueryEscape(email), "").json(t, &box)
		if len(box.Messages) == 0 {
			t.Fatalf("no mail to %s", email)
		}
		return box.Messages[0]
	}
	start := fmt.Sprintf(`{"email":%q,"deviceId":%q}`, email, device)
	c.want(c.do("POST", "/auth/v1/email/start"+pid, start), 200, "VERIFY_DEVICE")
	link, err := url.Parse(fmt.Sprint(outbox()["link"]))
	if err != nil {
		t.Fatal(err)
	}
	form := url.Values{"token": {link.Query().Get("token")}}.Encode()
	r := client{t, m.FrameURL()}.do("POST", link.Path, form, "Content-Type", "application/x-www-form-urlencoded")
	if r.status != 200 {
		t.Fatalf("approve the device: %d %s", r.status, r.body)
	}
	c.want(c.do("POST", "/auth/v1/email/start"+pid, start), 200, "VERIFY_OTP")
	var sess struct{ AccessToken string }
	c.do("POST", "/auth/v1/email/verify"+pid, fmt.Sprintf(`{"email":%q,"deviceId":%q,"otp":%q}`, email, device, outbox()["code"])).json(t, &sess)
	if sess.AccessToken == "" {
		t.Fatal("no access token")
	}
	return []string{"Authorization", "Bearer " + sess.AccessToken}
}

// signedName is the body of POST /v1/profile/account for name, signed now
// by key for addr (key's own address when addr is zero); wrap, when set,
// rewrites the signature (a smart account's ERC-6492 wrap).
func signedName(t *testing.T, key *ecdsa.PrivateKey, addr common.Address, name string, wrap func([]byte) []byte) string {
	t.Helper()
	if addr == (common.Address{}) {
		addr = crypto.PubkeyToAddress(key.PublicKey)
	}
	msg, _ := json.Marshal(map[string]any{"name": name, "attributes": map[string]string{}, "timestamp": time.Now().Unix()})
	sig, err := crypto.Sign(accounts.TextHash(msg), key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	if wrap != nil {
		sig = wrap(sig)
	}
	body, _ := json.Marshal(map[string]any{"coin_type": 0x80000000 | 31337, "address": addr.Hex(), "message": string(msg), "signature": hexutil.Encode(sig)})
	return string(body)
}

// smartAccountOf is the dev chain's LatchSmartAccount of key (salt 0, as
// the frame uses it) and the ERC-6492 wrap of its owner's signature, the
// account being undeployed.
func smartAccountOf(t *testing.T, m *app.Main, key *ecdsa.PrivateKey) (common.Address, func([]byte) []byte) {
	t.Helper()
	owner := crypto.PubkeyToAddress(key.PublicKey)
	factoryABI := contracts.MustLoad("LatchSmartAccountFactory").ABI
	chain := m.Devnet.Chains()[0]
	get, _ := factoryABI.Pack("getAddress", owner, new(big.Int))
	out := rpc(t, chain.RPCURL, "eth_call", map[string]string{"to": chain.SmartAccountFactory.Hex(), "data": hexutil.Encode(get)}, "latest")
	var word hexutil.Bytes
	if err := json.Unmarshal(out, &word); err != nil || len(word) != 32 {
		t.Fatalf("getAddress: %s", out)
	}
	create, _ := factoryABI.Pack("createAccount", owner, new(big.Int))
	addrT, _ := abi.NewType("address", "", nil)
	bytesT, _ := abi.NewType("bytes", "", nil)
	return common.BytesToAddress(word), func(sig []byte) []byte {
		enc, err := abi.Arguments{{Type: addrT}, {Type: bytesT}, {Type: bytesT}}.Pack(chain.SmartAccountFactory, create, sig)
		if err != nil {
			t.Fatal(err)
		}
		return append(enc, bytes.Repeat([]byte{0x64, 0x92}, 16)...)
	}
}

func TestNames_SessionRequired(t *testing.T) {
	m := runNamesMain(t, "--names-ip-daily", "0", "--names-account-daily", "0")
	c := client{t, m.APIURL()}
	reg := "/v1/profile/account?projectId=" + m.DevProjectID
	alice, other := mustKey(t), mustKey(t)

	t.Run("ErrNoSession", func(t *testing.T) {
		// What any connected wallet could send from the page: a valid
		// signature and nothing else.
		c.want(c.do("POST", reg, signedName(t, alice, common.Address{}, "alice", nil)), 401, addressNotFound)
		c.want(c.do("GET", "/v1/profile/account/alice.latch.test?projectId="+m.DevProjectID, ""), 404)
	})
	t.Run("ErrUnknownSession", func(t *testing.T) {
		c.want(c.do("POST", reg, signedName(t, alice, common.Address{}, "alice", nil), "Authorization", "Bearer not-a-token"), 401, "Session expired")
	})
	session := devSession(t, m, "alice@example.com")
	t.Run("FromTheFrame", func(t *testing.T) {
		// The frame sends the session from its own origin, after a preflight.
		frame := m.FrameURL()
		r := c.do("OPTIONS", reg, "", "Origin", frame, "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type,authorization")
		if r.status != 204 || r.header.Get("Access-Control-Allow-Origin") != frame {
			t.Fatalf("preflight: %d %v", r.status, r.header)
		}
		r = c.do("POST", reg, signedName(t, alice, common.Address{}, "alice", nil), append(session, "Origin", frame)...)
		c.want(r, 200, `"name":"alice.latch.test"`)
		if r.header.Get("Access-Control-Allow-Origin") != frame {
			t.Fatalf("CORS: %v", r.header)
		}
	})
	t.Run("ErrAnotherWalletsAddress", func(t *testing.T) {
		// The session's account registered with alice's key: another key's
		// address (an injected wallet's, say) is not its account.
		c.want(c.do("POST", reg, signedName(t, other, common.Address{}, "otherone", nil), session...), 403, addressNotFound)
	})
	t.Run("TheAccountsSmartAccount", func(t *testing.T) {
		account, wrap := smartAccountOf(t, m, alice)
		c.want(c.do("POST", reg, signedName(t, alice, account, "alice-smart", wrap), session...), 200, `"name":"alice-smart.latch.test"`, account.Hex())
	})
}

func TestNames_DailyLimits(t *testing.T) {
	t.Run("PerIP", func(t *testing.T) {
		m := runNamesMain(t, "--names-ip-daily", "1", "--names-account-daily", "0")
		c := client{t, m.APIURL()}
		reg := "/v1/profile/account?projectId=" + m.DevProjectID
		a, b := devSession(t, m, "a@example.com"), devSession(t, m, "b@example.com")
		keyA, keyB := mustKey(t), mustKey(t)
		// Refusals spend nothing: a reserved name, then a look-alike.
		c.want(c.do("POST", reg, signedName(t, keyA, common.Address{}, "admin", nil), a...), 409, "reserved")
		c.want(c.do("POST", reg, signedName(t, keyA, common.Address{}, "alice", nil), a...), 200)
		r := c.do("POST", reg, signedName(t, keyB, common.Address{}, "bobby", nil), b...)
		c.want(r, 429, "Your network (IP address) may register 1 name a day; try again in 24 h")
		if ra, _ := strconv.Atoi(r.header.Get("Retry-After")); ra < 86390 || ra > 86400 {
			t.Fatalf("Retry-After %q, want a day", r.header.Get("Retry-After"))
		}
	})
	// The account's second name of the day (its key's smart account, after the key's own address): held back by a
	// limit of 1, let through with none; another account from the same IP is not held back either way.
	for _, tt := range []struct {
		limit  string
		status int
		text   string
	}{{"1", 429, "Your account may register 1 name a day"}, {"0", 200, `"name":"alice-smart.latch.test"`}} {
		t.Run("PerAccount"+tt.limit, func(t *testing.T) {
			m := runNamesMain(t, "--names-ip-daily", "0", "--names-account-daily", tt.limit)
			c := client{t, m.APIURL()}
			reg := "/v1/profile/account?projectId=" + m.DevProjectID
			a := devSession(t, m, "a@example.com")
			key := mustKey(t)
			c.want(c.do("POST", reg, signedName(t, key, common.Address{}, "alice", nil), a...), 200)
			account, wrap := smartAccountOf(t, m, key)
			c.want(c.do("POST", reg, signedName(t, key, account, "alice-smart", wrap), a...), tt.status, tt.text)
			c.want(c.do("POST", reg, signedName(t, mustKey(t), common.Address{}, "bobby", nil), devSession(t, m, "b@example.com")...), 200)
		})
	}
	t.Run("ErrFlags", func(t *testing.T) {
		for _, f := range []string{"--names-ip-daily", "--names-account-daily"} {
			if _, err := app.ParseConfig([]string{f, "-1"}, nil); err == nil || !strings.Contains(err.Error(), f) {
				t.Errorf("%s -1: %v", f, err)
			}
		}
	})
}

func TestNames_Reserved(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "reserved.txt")
	if err := os.WriteFile(file, []byte("# our brands\nacme-pay\nAcmeCorp.latch.test  # a full name works too\n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := runNamesMain(t, "--names-ip-daily", "0", "--names-account-daily", "0", "--names-reserved-file", file, "--data-dir", dir)
	c := client{t, m.APIURL()}
	pid := "?projectId=" + m.DevProjectID
	reg := "/v1/profile/account" + pid
	session, key := devSession(t, m, "r@example.com"), mustKey(t)
	refused := func(name, text string) {
		t.Helper()
		c.want(c.do("POST", reg, signedName(t, key, common.Address{}, name, nil), session...), 409, text)
	}

	t.Run("BuiltIn", func(t *testing.T) {
		refused("admin", "The name admin.latch.test is reserved")
		refused("wallet", "The name wallet.latch.test is reserved")
		refused("supp0rt", "supp0rt.latch.test looks like support.latch.test, which is reserved")
		refused("1atch", "1atch.latch.test looks like latch.latch.test, which is reserved")
	})
	t.Run("TheProjectsName", func(t *testing.T) {
		// The dev project is "Latch dev".
		refused("latch-dev", "The name latch-dev.latch.test is reserved")
		refused("latchdev", "The name latchdev.latch.test is reserved")
		refused("1atch-dev", "looks like latch-dev.latch.test")
	})
	t.Run("File", func(t *testing.T) {
		refused("acme-pay", "The name acme-pay.latch.test is reserved")
		refused("acmecorp", "The name acmecorp.latch.test is reserved")
		refused("acrne-pay", "acrne-pay.latch.test looks like acme-pay.latch.test, which is reserved")
	})
	t.Run("Suggestions", func(t *testing.T) {
		// The widget learns before signing anything.
		c.want(c.do("GET", "/v1/profile/suggestions/supp0rt"+pid, ""), 200,
			`{"name":"supp0rt.latch.test","registered":true,"reason":"supp0rt.latch.test looks like support.latch.test, which is reserved"}`,
			`{"name":"supp0rt1.latch.test","registered":false}`)
	})
	t.Run("CLI", func(t *testing.T) {
		cli := func(args ...string) (int, string) {
			var out, errOut bytes.Buffer
			code := app.CLI(context.Background(), append([]string{"names"}, append(args, "--data-dir", dir)...), &out, &errOut)
			return code, out.String() + errOut.String()
		}
		if code, out := cli("reserve", "VIP-Name"); code != 0 || !strings.Contains(out, "reserved vip-name") {
			t.Fatalf("reserve: %d %s", code, out)
		}
		// The running latchd applies it at once, look-alikes included.
		refused("vip-name", "The name vip-name.latch.test is reserved")
		refused("vip-narne", "vip-narne.latch.test looks like vip-name.latch.test, which is reserved")
		if code, out := cli("reserved"); code != 0 || !strings.HasPrefix(out, "vip-name\t") {
			t.Fatalf("reserved: %d %s", code, out)
		}
		if code, out := cli("release", "vip-name.latch.test"); code != 0 || !strings.Contains(out, "released vip-name") {
			t.Fatalf("release: %d %s", code, out)
		}
		c.want(c.do("POST", reg, signedName(t, key, common.Address{}, "vip-name", nil), session...), 200)
		// Reserving a registered name keeps it with its holder.
		if code, out := cli("reserve", "vip-name"); code != 0 || !strings.Contains(out, "stays registered to "+crypto.PubkeyToAddress(key.PublicKey).Hex()) {
			t.Fatalf("reserve a registered name: %d %s", code, out)
		}
		c.want(c.do("GET", "/v1/profile/account/vip-name.latch.test"+pid, ""), 200)
		for _, args := range [][]string{{"release", "nobody"}, {"reserve", "ab"}, {"reserve"}, {"reserve", "a", "b"}, {"forget", "x"}} {
			if code, out := cli(args...); code == 0 {
				t.Errorf("%v: exit 0: %s", args, out)
			}
		}
	})
	t.Run("ErrFile", func(t *testing.T) {
		bad := filepath.Join(dir, "bad.txt")
		os.WriteFile(bad, []byte("fine\nno_underscores\n"), 0o600)
		cfg, err := app.ParseConfig([]string{"--names-reserved-file", bad}, nil)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Dev, cfg.Addr, cfg.FrameAddr, cfg.AdminAddr, cfg.DataDir = true, "127.0.0.1:0", "127.0.0.1:0", "", t.TempDir()
		cfg.DevChains, cfg.ShutdownTimeout = []uint64{31337}, 5*time.Second
		m := app.NewMain(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		err = m.Run(context.Background())
		m.Close()
		if err == nil || !strings.Contains(err.Error(), "bad.txt:2") || !strings.Contains(err.Error(), "letters, digits and hyphens") {
			t.Fatalf("start with a bad file: %v", err)
		}
	})
}

func TestNames_LookAlikes(t *testing.T) {
	m := runNamesMain(t, "--names-ip-daily", "0", "--names-account-daily", "0")
	c := client{t, m.APIURL()}
	reg := "/v1/profile/account?projectId=" + m.DevProjectID
	register := func(name string, status int, texts ...string) {
		t.Helper()
		session := devSession(t, m, name+"@example.com")
		c.want(c.do("POST", reg, signedName(t, mustKey(t), common.Address{}, name, nil), session...), status, texts...)
	}
	// Registered first, then its look-alike; and the other way round.
	register("paypal", 200)
	register("paypa1", 409, "paypa1.latch.test looks like paypal.latch.test, which is already registered")
	register("g00gle", 200)
	register("google", 409, "google.latch.test looks like g00gle.latch.test, which is already registered")
	register("rnodern", 200)
	register("modern", 409, "modern.latch.test looks like rnodern.latch.test, which is already registered")
	// Not in confusables.txt: these stay distinct.
	register("vvizard", 200)
	register("wizard", 200)
}
