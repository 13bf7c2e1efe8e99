package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/account"
	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
)

func TestConfig_SponsorFlags(t *testing.T) {
	cfg, err := parseConfig("latchd dev", nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Bundler.Sponsor
	if s.DailyBudget != "1" || s.AccountDailyBudget != "0.02" || s.BaseFeeMultiplier != "3" || s.ApprovalTTL != 120*time.Second || s.RequireSession || s.AnyBundler || len(s.MaxCallGas) != 0 {
		t.Fatalf("defaults: %+v", s)
	}
	set, err := s.parse()
	if err != nil {
		t.Fatal(err)
	}
	if set.dailyBudget.String() != "1000000000000000000" || set.accountDailyBudget.String() != "20000000000000000" || set.multiplierPercent != 300 || set.anyBundler {
		t.Fatalf("parsed defaults: %+v", set)
	}
	if l := set.limits("eip155:1", "ETH"); l.MaxCallGas != 0 || l.MaxPriorityFee != nil || l.DailyBudget != nil {
		t.Fatalf("default limits (the bundler's defaults apply): %+v", l)
	}

	cfg, err = parseConfig("latchd dev", []string{
		"--sponsor-daily-budget", "0.5", "--sponsor-account-daily-budget", "", "--sponsor-network-daily-budget", "eip155:10=2.25",
		"--sponsor-base-fee-multiplier", "1.25", "--sponsor-max-priority-fee", "3000000000", "--sponsor-max-priority-fee", "eip155:137=90000000000",
		"--sponsor-max-verification-gas", "900000", "--sponsor-max-call-gas", "eip155:10=2000000", "--sponsor-max-call-gas", "300000",
		"--sponsor-max-pre-verification-gas", "eip155:1=70000", "--sponsor-approval-ttl", "45s", "--sponsor-require-session", "--sponsor-any-bundler",
	}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	s = cfg.Bundler.Sponsor
	if set, err = s.parse(); err != nil {
		t.Fatal(err)
	}
	if set.dailyBudget.String() != "500000000000000000" || set.accountDailyBudget != nil || set.multiplierPercent != 125 || s.ApprovalTTL != 45*time.Second || !s.RequireSession || !set.anyBundler {
		t.Fatalf("parsed: %+v %+v", s, set)
	}
	l1, l10, l137 := set.limits("eip155:1", "ETH"), set.limits("eip155:10", "ETH"), set.limits("eip155:137", "POL")
	if l1.MaxCallGas != 300_000 || l10.MaxCallGas != 2_000_000 || l1.MaxVerificationGas != 900_000 || l1.MaxPreVerificationGas != 70_000 || l10.MaxPreVerificationGas != 0 ||
		l1.MaxPriorityFee.Int64() != 3_000_000_000 || l137.MaxPriorityFee.Int64() != 90_000_000_000 || l137.Symbol != "POL" ||
		l10.DailyBudget.String() != "2250000000000000000" || l1.DailyBudget != nil {
		t.Fatalf("limits: %+v %+v %+v", l1, l10, l137)
	}

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--sponsor-daily-budget", "1e18"}, "--sponsor-daily-budget must be a positive decimal number"},
		{[]string{"--sponsor-account-daily-budget", "0.0000000000000000001"}, "more than 18 decimal places"},
		{[]string{"--sponsor-network-daily-budget", "0.5"}, "want <caip2>=<amount>"},
		{[]string{"--sponsor-network-daily-budget", "solana:x=0.5"}, "want <caip2>=<amount>"},
		{[]string{"--sponsor-base-fee-multiplier", "0.5"}, "want 1 to 10"},
		{[]string{"--sponsor-base-fee-multiplier", "1.234"}, "want 1 to 10"},
		{[]string{"--sponsor-max-priority-fee", "1gwei"}, "want a positive number of wei"},
		{[]string{"--sponsor-max-call-gas", "eip155:1=0"}, "want a positive amount of gas"},
		{[]string{"--sponsor-max-verification-gas", "bitcoin:1=5"}, "is not an eip155 network"},
		{[]string{"--sponsor-approval-ttl", "10s"}, "want 30s to 1h"},
	} {
		if _, err := parseConfig("latchd dev", tt.args, io.Discard); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want %q", tt.args, err, tt.want)
		}
	}
}

// latchd sponsor fund and report, on the database latchd uses.
func TestCLI_Sponsor(t *testing.T) {
	dir := t.TempDir()
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := CLI(context.Background(), append(args, "--data-dir", dir), &out, &errb)
		return code, out.String(), errb.String()
	}
	code, out, _ := run("project", "create", "--name", "Shop", "--origin", "https://shop.example")
	if code != 0 {
		t.Fatal("project create failed")
	}
	id := strings.TrimSpace(out)
	if code, out, errs := run("sponsor", "fund", "--project", id, "--network", "eip155:1", "--amount", "0.25", "--note", "invoice 7"); code != 0 || !strings.Contains(out, "with 0.25 ETH; its balance there is 0.25 ETH") {
		t.Fatalf("fund: %d %q %q", code, out, errs)
	}
	if code, _, _ := run("sponsor", "fund", "--project", id, "--network", "eip155:1", "--amount", "0.000000000000000001"); code != 0 {
		t.Fatal("fund of one wei failed")
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"sponsor", "fund", "--project", "nope", "--network", "eip155:1", "--amount", "1"}, `--project "nope"`},
		{[]string{"sponsor", "fund", "--project", id, "--network", "mainnet", "--amount", "1"}, "want an eip155 network id"},
		{[]string{"sponsor", "fund", "--project", id, "--network", "eip155:1", "--amount", "-1"}, "--amount must be a positive decimal number"},
		{[]string{"sponsor", "fund", "--project", id, "--network", "eip155:1", "--amount", "0"}, "--amount must be greater than zero"},
		{[]string{"sponsor", "fund", "--project", id, "--network", "eip155:1"}, "--amount is required"},
		{[]string{"sponsor", "drain"}, "want: latchd sponsor fund"},
	} {
		if code, _, errs := run(tt.args...); code == 0 || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: %d %q, want %q", tt.args, code, errs, tt.want)
		}
	}

	// A spend settled and a price recorded by a running latchd.
	ctx := context.Background()
	db, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	st := bundler.NewStore(db)
	r := bundler.Reservation{ID: common.Hash{1}, ProjectID: id, Network: "eip155:1", Sender: common.Address{1}, Nonce: new(big.Int), Amount: big.NewInt(1e15), ValidUntil: time.Now().Add(time.Minute)}
	if err := st.Reserve(ctx, r, bundler.Budgets{}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Settle(ctx, "eip155:1", []bundler.Settlement{{UserOpHash: r.ID, Sender: r.Sender, Nonce: r.Nonce, ActualGasCost: big.NewInt(5e13)}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := st.SetPrice(ctx, "eip155:1", 3000, time.Now()); err != nil {
		t.Fatal(err)
	}
	db.Close()

	code, out, _ = run("sponsor", "report")
	if code != 0 || !strings.Contains(out, "Shop") || !strings.Contains(out, "0.250000000000000001 ETH ($750.00)") || !strings.Contains(out, "0.00005 ETH ($0.15)") ||
		!strings.Contains(out, "0.249950000000000001 ETH") || !strings.Contains(out, "USD at eip155:1's last price latchd read, $3000.00") {
		t.Fatalf("report:\n%s", out)
	}
	code, out, _ = run("sponsor", "report", "--json")
	var rows []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 || rows[0]["spent"] != "50000000000000" || rows[0]["left"] != "249950000000000001" || rows[0]["usdPrice"] != 3000.0 || rows[0]["operationsToday"] != 1.0 {
		t.Fatalf("report --json: %s", out)
	}
}

// latchd dev tops its project up to 10 ETH on each dev network at every
// start, however much earlier runs spent.
func TestMain_DevSponsorFunding(t *testing.T) {
	dir := t.TempDir()
	start := func() *Main {
		return runServeMain(t, func(c *Config) { c.Dev, c.DevChains, c.DataDir, c.Bundler.Dev = true, []uint64{31337}, dir, true })
	}
	ten := new(big.Int).Mul(big.NewInt(10), big.NewInt(1e18))
	m := start()
	st := bundler.NewStore(m.DB)
	ctx := context.Background()
	if left, err := st.Left(ctx, m.DevProjectID, "eip155:31337"); err != nil || left.Cmp(ten) != 0 {
		t.Fatalf("dev project balance %s, %v; want 10 ETH", left, err)
	}
	// The running latchd records the dev price feed's ETH price for the report.
	want, ok := m.account.prices.Price(ctx, 31337, account.Native)
	if !ok || want <= 0 {
		t.Fatal("no dev ETH price")
	}
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		rows, err := st.Report(ctx, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) == 1 && rows[0].USD == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("report %+v, want the price %v beside", rows, want)
		}
	}
	r := bundler.Reservation{ID: common.Hash{7}, ProjectID: m.DevProjectID, Network: "eip155:31337", Sender: common.Address{7}, Nonce: new(big.Int), Amount: big.NewInt(3e18), ValidUntil: time.Now().Add(time.Minute)}
	if err := st.Reserve(ctx, r, bundler.Budgets{}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Settle(ctx, r.Network, []bundler.Settlement{{UserOpHash: r.ID, Sender: r.Sender, Nonce: r.Nonce, ActualGasCost: big.NewInt(3e18)}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	m.Close()
	m = start()
	if left, err := bundler.NewStore(m.DB).Left(ctx, m.DevProjectID, "eip155:31337"); err != nil || left.Cmp(ten) != 0 {
		t.Fatalf("after a restart: %s, %v; want 10 ETH again", left, err)
	}
}

// devSession signs email in to projectID through latchd dev's outbox and
// returns the session's access token.
func devSession(t *testing.T, m *Main, projectID, email string) string {
	t.Helper()
	c := authClient{t: t, base: m.APIURL(), project: projectID, origin: m.FrameURL()}
	const device = "sponsor-test-device-0123"
	var start auth.StartResult
	c.call("POST", "/auth/v1/email/start", "", map[string]string{"email": email, "deviceId": device}, 200, &start)
	msgs := m.Outbox().List(email)
	if len(msgs) == 0 {
		t.Fatal("no approval mail")
	}
	link, err := url.Parse(msgs[0].Link) // newest first
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.PostForm(m.FrameURL()+auth.ApprovePath, url.Values{"token": {link.Query().Get("token")}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	c.call("POST", "/auth/v1/email/start", "", map[string]string{"email": email, "deviceId": device}, 200, &start)
	msgs = m.Outbox().List(email)
	var sess auth.Session
	c.call("POST", "/auth/v1/email/verify", "", map[string]string{"email": email, "deviceId": device, "otp": msgs[0].Code}, 200, &sess)
	if sess.AccessToken == "" {
		t.Fatal("no access token")
	}
	return sess.AccessToken
}

// With --sponsor-require-session, latchd dev's project sponsors only an
// operation that comes with the visitor's Latch session and its wallet's
// proof that the sender is its smart account.
func TestMain_SponsorRequireSession(t *testing.T) {
	m := runServeMain(t, func(c *Config) {
		c.Dev, c.DevChains, c.Bundler.Dev, c.Bundler.Sponsor.RequireSession = true, []uint64{31337}, true, true
	})
	token := devSession(t, m, m.DevProjectID, "sponsored@example.com")
	nw := m.Info().Networks[0]
	ep := common.HexToAddress(nw.EntryPoint)
	svc := m.Bundler()
	key, _ := crypto.GenerateKey()
	owner := crypto.PubkeyToAddress(key.PublicKey)
	sender := bundler.SmartAccountAddress(common.HexToAddress(nw.SmartAccountFactory), ep, owner, new(big.Int))
	ctx := context.Background()
	var head struct {
		BaseFee *hexutil.Big `json:"baseFeePerGas"`
	}
	if err := m.account.clients.For(nw.CAIPNetworkID).Call(ctx, &head, "eth_getBlockByNumber", "latest", false); err != nil {
		t.Fatal(err)
	}
	op := &bundler.UserOperation{Sender: sender, Nonce: new(big.Int), CallData: []byte{}, CallGasLimit: 50_000, VerificationGasLimit: 800_000,
		MaxFeePerGas: new(big.Int).Add(head.BaseFee.ToInt(), big.NewInt(1e9)), MaxPriorityFeePerGas: big.NewInt(1e9)}
	f := common.HexToAddress(nw.SmartAccountFactory)
	op.Factory, op.FactoryData = &f, append(common.FromHex("0x5fbfb9cf"), append(common.LeftPadBytes(owner[:], 32), make([]byte, 32)...)...)
	est, rerr := svc.EstimateUserOperationGas(ctx, nw.CAIPNetworkID, withPaymaster(op, nw.VerifyingPaymaster), ep)
	if rerr != nil {
		t.Fatal(rerr)
	}
	op.PreVerificationGas = uint64(est.PreVerificationGas)
	proof := func(k []byte, tok string) []byte {
		pk, _ := crypto.ToECDSA(k)
		sig, _ := crypto.Sign(accounts.TextHash([]byte(bundler.SessionProofMessage(nw.ChainID, sender, tok))), pk)
		sig[64] += 27
		return sig
	}
	approve := func(sc bundler.SponsorContext) (*bundler.PaymasterApproval, string) {
		a, rerr := svc.Approve(ctx, bundler.ApprovalRequest{ProjectID: m.DevProjectID, Network: nw.CAIPNetworkID, Op: op, EntryPoint: ep, ChainID: hexutil.EncodeUint64(nw.ChainID), Context: sc})
		if rerr != nil {
			return nil, rerr.Message
		}
		return a, ""
	}
	other, _ := crypto.GenerateKey()
	for _, tt := range []struct {
		name string
		sc   bundler.SponsorContext
		want string
	}{
		{"NoSession", bundler.SponsorContext{}, "the context has no latchSession"},
		{"UnknownToken", bundler.SponsorContext{AccessToken: "not-a-token", Proof: proof(crypto.FromECDSA(key), "not-a-token")}, "has expired or was revoked"},
		{"NoProof", bundler.SponsorContext{AccessToken: token}, "no latchSessionProof"},
		{"OtherKey", bundler.SponsorContext{AccessToken: token, Proof: proof(crypto.FromECDSA(other), token)}, "does not show that " + sender.Hex()},
		{"ProofOfAnotherSession", bundler.SponsorContext{AccessToken: token, Proof: proof(crypto.FromECDSA(key), "another-token")}, "does not show that"},
	} {
		if _, msg := approve(tt.sc); !strings.Contains(msg, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, msg, tt.want)
		}
	}
	a, msg := approve(bundler.SponsorContext{AccessToken: token, Proof: proof(crypto.FromECDSA(key), token)})
	if a == nil {
		t.Fatalf("the session's own smart account: %s", msg)
	}
	// The stub answers for a live session (the wallet signs the proof only
	// once the visitor approves), through the RPC door.
	rpc := authClient{t: t, base: m.APIURL(), project: m.DevProjectID}
	for _, tt := range []struct {
		context map[string]any
		want    string
	}{
		{map[string]any{"latchSession": token}, `"paymaster":"` + strings.ToLower(nw.VerifyingPaymaster)},
		{map[string]any{}, "the context has no latchSession"},
	} {
		_, _, b := rpc.do("POST", "/v1?chainId="+nw.CAIPNetworkID, "", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "pm_getPaymasterStubData", "params": []any{op, ep, hexutil.EncodeUint64(nw.ChainID), tt.context}})
		if !strings.Contains(strings.ToLower(string(b)), strings.ToLower(tt.want)) {
			t.Errorf("stub with %v: %s, want %q", tt.context, b, tt.want)
		}
	}
	// Another project's session does not count.
	p := &project.Project{Name: "Other", Origins: []string{"https://other.example"}, Features: project.DefaultFeatures()}
	p.Features.Email = true
	if err := m.Projects.Create(ctx, p); err != nil {
		t.Fatal(err)
	}
	foreign := devSession(t, m, p.ID, "sponsored@example.com")
	if _, msg := approve(bundler.SponsorContext{AccessToken: foreign, Proof: proof(crypto.FromECDSA(key), foreign)}); !strings.Contains(msg, "has expired or was revoked") {
		t.Fatalf("another project's session: %q", msg)
	}
}

// withPaymaster is op with the paymaster's fields, for an estimate.
func withPaymaster(op *bundler.UserOperation, paymaster string) *bundler.UserOperation {
	c := op.Copy()
	pm := common.HexToAddress(paymaster)
	c.Paymaster, c.PaymasterVerificationGasLimit, c.PaymasterPostOpGasLimit, c.PaymasterData = &pm, 100_000, 50_000, make([]byte, bundler.PaymasterApprovalLength)
	c.Signature = bundler.StubSignature()
	return c
}
