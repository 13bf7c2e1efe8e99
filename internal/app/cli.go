package app

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/latchkit/latch/internal/explorer"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
)

const usage = `latchd — the Latch server: wallet explorer, config, telemetry and dev networks.

Usage:
  latchd dev     [options]   start with in-process dev networks and a dev project (for laptops;
                             the dev build only: make build-dev, or go build -tags devchain)
  latchd serve   [options]   start for production
  latchd project create --name NAME [--origin URL]… [--return-url URL]… [--feature key=value]… [--analytics=false]
  latchd project list   [--json]
  latchd project update --id ID [--name NAME] [--origin URL]… [--add-origin URL]… [--remove-origin URL]… [--return-url URL]…
                        [--feature key=value]… [--analytics=true|false]
  latchd image put --kind wallet|asset|currency|token --id ID --file logo.png|.jpg|.webp|.svg
  latchd auth rotate-key     re-encrypt the embedded wallet's stored shares under the first key of --auth-kek
                             and --auth-recovery-key (docs/auth.md)
  latchd names reserve NAME | release NAME | reserved
                             reserve a name (and its look-alikes) so no visitor registers it, release one, or list them;
                             every node applies the change at once (docs/names.md)
  latchd sponsor fund --project ID --network CAIP2 --amount X [--note TEXT]
                             add X of the network's coin (e.g. 0.5) to the project's sponsorship balance there
  latchd sponsor report [--json]
                             print each project's sponsorship per network: funded, spent, reserved, left
  latchd routes              print every route with its method, pattern, guard class and listener
  latchd healthcheck [--url URL] [--timeout D]
                             GET a running latchd's /healthz (default: on --addr); exit 0 if it answers 200
  latchd version             print the version, commit, build date, Go version and build kind
  latchd help

Every option can also be set with an environment variable LATCH_<OPTION> (e.g. LATCH_DATABASE_URL)
or in a config file (--config) of "option = value" lines; the command line wins, then the environment.
Features: %s.

Options:
`

// CLI runs latchd with args (without the program name) and returns the exit code.
// ctx is cancelled on SIGINT/SIGTERM; a running server then shuts down gracefully.
func CLI(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd := "help"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "dev", "serve":
		err = runServer(ctx, cmd == "dev", args, stdout, stderr)
	case "project":
		err = runProject(ctx, args, stdout, stderr)
	case "image":
		err = runImage(ctx, args, stdout, stderr)
	case "auth":
		err = runAuth(ctx, args, stdout, stderr)
	case "names":
		err = runNames(ctx, args, stdout, stderr)
	case "sponsor":
		err = runSponsor(ctx, args, stdout, stderr)
	case "routes":
		if len(args) > 0 {
			err = fmt.Errorf("takes no arguments")
			break
		}
		err = printRoutes(stdout)
	case "healthcheck":
		err = runHealthcheck(ctx, args, stdout, stderr)
	case "version", "-version", "--version":
		if len(args) > 0 {
			err = fmt.Errorf("takes no arguments")
			break
		}
		printVersion(stdout, Build())
	case "help", "-h", "-help", "--help":
		printUsage(stdout)
		return 0
	default:
		fmt.Fprintf(stderr, "latchd: unknown command %q\n\n", cmd)
		printUsage(stderr)
		return 2
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "latchd %s: %v\n", cmd, err)
		return 1
	}
	return 0
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, usage, strings.Join(project.FeatureKeys, ", "))
	fs, _ := flagSet("latchd", &Config{}, w)
	fs.VisitAll(func(f *flag.Flag) {
		name, help := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "  --%s %s\n    \t%s", f.Name, name, help)
		if f.DefValue != "" && f.DefValue != "[]" {
			fmt.Fprintf(w, " (default %q)", f.DefValue)
		}
		fmt.Fprintf(w, " [%s]\n", EnvName(f.Name))
	})
}

func parseConfig(name string, args []string, stderr io.Writer) (Config, error) {
	var cfg Config
	fs, finish := flagSet(name, &cfg, stderr)
	fs.Usage = func() { printUsage(stderr) }
	if err := parseFlags(fs, args, os.Getenv); err != nil {
		return cfg, err
	}
	return cfg, finish()
}

func newLogger(cfg Config, w io.Writer) *slog.Logger {
	var level slog.Level
	level.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

func runServer(ctx context.Context, dev bool, args []string, stdout, stderr io.Writer) error {
	name := "latchd serve"
	if dev {
		name = "latchd dev"
	}
	cfg, err := parseConfig(name, args, stderr)
	if err != nil {
		return err
	}
	cfg.Dev = dev
	if !dev {
		if err := CheckServe(cfg); err != nil {
			return err
		}
	}
	logger := newLogger(cfg, stderr)
	slog.SetDefault(logger)
	m := NewMain(cfg, logger)
	if err := m.Run(ctx); err != nil {
		return err
	}
	logger.Info("latchd ready", "mode", map[bool]string{true: "dev", false: "serve"}[dev], "api", m.APIURL(),
		"frame", m.FrameURL(), "admin", m.AdminURL(), "storage", string(m.DB.Dialect), "startup_ms", m.StartupTime.Milliseconds())
	if dev {
		fmt.Fprintf(stdout, "latchd dev ready in %d ms\n  API:         %s\n  frame:       %s\n  project id:  %s\n",
			m.StartupTime.Milliseconds(), m.APIURL(), m.FrameURL(), m.DevProjectID)
		for _, n := range m.Info().Networks {
			fmt.Fprintf(stdout, "  %-13s%s  %s\n", n.Name+":", n.CAIPNetworkID, n.RPCURL)
		}
		fmt.Fprintf(stdout, "  dev info:    %s/dev/info\n", m.APIURL())
		if u := m.AdminURL(); u != "" {
			fmt.Fprintf(stdout, "  metrics:     %s/metrics\n", u)
		}
		if u := m.DemoURL(); u != "" {
			fmt.Fprintf(stdout, "  demo:        %s\n", u)
		}
	}
	<-ctx.Done()
	logger.Info("shutting down")
	return m.Close()
}

// CheckServe reports the first setting latchd serve needs and cfg lacks: the
// relay's public URL, the embedded wallet's keys, and the public URLs of
// listeners that listen on every interface. deploy's tests check the compose
// file's nodes with it.
func CheckServe(cfg Config) error {
	if cfg.RelayURL == "" {
		return errRelayURLRequired
	}
	if err := requireAuthKeys(cfg.Auth); err != nil {
		return err
	}
	return requirePublicURLs(cfg)
}

// runProject manages projects directly in the database latchd uses.
func runProject(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("want a subcommand: create, list or update")
	}
	sub, args := args[0], args[1:]
	var cfg Config
	fs, finish := flagSet("latchd project "+sub, &cfg, stderr)
	var origins, addOrigins, removeOrigins, features, returnURLs stringList
	var id, name string
	var analytics boolFlag
	asJSON := false
	switch sub {
	case "create", "update":
		fs.StringVar(&name, "name", "", "project name")
		fs.Var(&origins, "origin", "allowed origin (repeatable; on update, replaces the list)")
		fs.Var(&returnURLs, "return-url", "a page a social login in redirect mode may come back to, on one of the origins (repeatable; on update, replaces the list; \"\" empties it)")
		fs.Var(&features, "feature", "feature key=value (repeatable)")
		fs.Var(&analytics, "analytics", "analytics on or off")
		if sub == "update" {
			fs.StringVar(&id, "id", "", "project id")
			fs.Var(&addOrigins, "add-origin", "origin to add (repeatable)")
			fs.Var(&removeOrigins, "remove-origin", "origin to remove (repeatable)")
		}
	case "list":
		fs.BoolVar(&asJSON, "json", false, "print JSON")
	default:
		return fmt.Errorf("unknown subcommand %q: want create, list or update", sub)
	}
	if err := parseFlags(fs, args, os.Getenv); err != nil {
		return err
	}
	if err := finish(); err != nil {
		return err
	}
	db, err := store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := project.NewService(db)

	switch sub {
	case "list":
		list, err := svc.List(ctx)
		if err != nil {
			return err
		}
		if asJSON {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			if list == nil {
				list = []*project.Project{}
			}
			return enc.Encode(list)
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tORIGINS\tANALYTICS")
		for _, p := range list {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%t\n", p.ID, p.Name, strings.Join(p.Origins, ","), p.Analytics)
		}
		return tw.Flush()
	case "create":
		p := &project.Project{Name: name, Origins: origins, ReturnURLs: nonEmpty(returnURLs), Features: project.DefaultFeatures(), Analytics: true}
		if analytics.set {
			p.Analytics = analytics.v
		}
		if err := applyFeatures(&p.Features, features); err != nil {
			return err
		}
		if err := svc.Create(ctx, p); err != nil {
			return err
		}
		fmt.Fprintln(stdout, p.ID)
		return nil
	default: // update
		p, err := svc.Get(ctx, id)
		if err != nil {
			return err
		}
		if name != "" {
			p.Name = name
		}
		if len(origins) > 0 {
			p.Origins = origins
		}
		p.Origins = append(p.Origins, addOrigins...)
		if len(returnURLs) > 0 {
			p.ReturnURLs = nonEmpty(returnURLs)
		}
		for _, o := range removeOrigins {
			// A stored origin that today's rules refuse is removed as written.
			n, err := project.NormalizeOrigin(o)
			if err != nil {
				n = o
			}
			kept := p.Origins[:0]
			for _, have := range p.Origins {
				if have != n {
					kept = append(kept, have)
				}
			}
			p.Origins = kept
		}
		if analytics.set {
			p.Analytics = analytics.v
		}
		if err := applyFeatures(&p.Features, features); err != nil {
			return err
		}
		if err := svc.Update(ctx, p); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "updated %s\n", p.ID)
		return nil
	}
}

// nonEmpty is list without its empty values.
func nonEmpty(list []string) []string {
	out := []string{}
	for _, v := range list {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

func applyFeatures(f *project.Features, kvs []string) error {
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("--feature %q: want key=value", kv)
		}
		if err := f.SetFeature(strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return err
		}
	}
	return nil
}

// boolFlag is a boolean flag that remembers whether it was given.
type boolFlag struct{ set, v bool }

func (b *boolFlag) String() string   { return strconv.FormatBool(b.v) }
func (b *boolFlag) IsBoolFlag() bool { return true }
func (b *boolFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	b.set, b.v = true, v
	return nil
}

// imageTypes maps the file extensions `latchd image put` accepts to content types.
var imageTypes = map[string]string{".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp", ".svg": "image/svg+xml"}

// runImage stores an image (a wallet logo, a network or token icon) that the
// image routes then serve instead of a generated monogram.
func runImage(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "put" {
		return fmt.Errorf("want: latchd image put --kind K --id ID --file F")
	}
	var cfg Config
	fs, finish := flagSet("latchd image put", &cfg, stderr)
	var kind, id, file string
	fs.StringVar(&kind, "kind", "", "wallet, asset, currency or token")
	fs.StringVar(&id, "id", "", "image id: a wallet id, a CAIP-2 network id, a token symbol or a currency code")
	fs.StringVar(&file, "file", "", "PNG, JPEG, WebP or SVG file")
	if err := parseFlags(fs, args[1:], os.Getenv); err != nil {
		return err
	}
	if err := finish(); err != nil {
		return err
	}
	ct, ok := imageTypes[strings.ToLower(filepath.Ext(file))]
	if !ok {
		return fmt.Errorf("--file %q: want a .png, .jpg, .webp or .svg file", file)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	db, err := store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := explorer.New(db).PutImage(ctx, kind, id, ct, data); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "stored %s image %s (%d bytes, %s)\n", kind, id, len(data), ct)
	return nil
}
