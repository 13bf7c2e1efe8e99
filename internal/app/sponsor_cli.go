package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"os"
	"text/tabwriter"
	"time"

	"github.com/latchkit/latch/data"
	"github.com/latchkit/latch/internal/bundler"
	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/network"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
)

// runSponsor manages the projects' sponsorship balances in the database
// latchd uses: fund tops one up, report prints them all.
func runSponsor(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "fund" && args[0] != "report") {
		return fmt.Errorf("want: latchd sponsor fund --project ID --network CAIP2 --amount X | latchd sponsor report [--json]")
	}
	sub := args[0]
	var cfg Config
	fs, finish := flagSet("latchd sponsor "+sub, &cfg, stderr)
	var projectID, networkID, amount, note string
	asJSON := false
	if sub == "fund" {
		fs.StringVar(&projectID, "project", "", "project id")
		fs.StringVar(&networkID, "network", "", "CAIP-2 network id, e.g. eip155:1")
		fs.StringVar(&amount, "amount", "", "amount in the network's native coin, e.g. 0.5 (exact, up to 18 decimals)")
		fs.StringVar(&note, "note", "", "a note kept with the top-up in the ledger")
	} else {
		fs.BoolVar(&asJSON, "json", false, "print JSON")
	}
	if err := parseFlags(fs, args[1:], os.Getenv); err != nil {
		return err
	}
	if err := finish(); err != nil {
		return err
	}
	nets, err := network.Load(data.Networks)
	if err != nil {
		return err
	}
	var wei *big.Int
	if sub == "fund" {
		if _, err := caip.EVMChainID(networkID); err != nil {
			return fmt.Errorf("--network %q: want an eip155 network id such as eip155:1", networkID)
		}
		if wei, err = parseNative("--amount", amount); err != nil {
			return err
		}
	}
	db, err := store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer db.Close()
	st, projects := bundler.NewStore(db), project.NewService(db)
	if sub == "fund" {
		if _, err := projects.Get(ctx, projectID); err != nil {
			return fmt.Errorf("--project %q: %w", projectID, err)
		}
		if err := st.Fund(ctx, projectID, networkID, wei, note, time.Now()); err != nil {
			return err
		}
		left, err := st.Left(ctx, projectID, networkID)
		if err != nil {
			return err
		}
		sym := symbolOf(nets, networkID)
		fmt.Fprintf(stdout, "funded %s on %s with %s; its balance there is %s (before approvals not yet used)\n", projectID, networkID, bundler.FormatNative(wei, sym), bundler.FormatNative(left, sym))
		return nil
	}
	rows, err := st.Report(ctx, time.Now())
	if err != nil {
		return err
	}
	names := map[string]string{"": "(approvals latchd has no record of)"}
	if list, err := projects.List(ctx); err == nil {
		for _, p := range list {
			names[p.ID] = p.Name
		}
	}
	if asJSON {
		return printSponsorJSON(stdout, rows, names, nets)
	}
	return printSponsorTable(stdout, rows, names, nets)
}

func symbolOf(nets *network.Registry, id string) string {
	if n := nets.Get(id); n != nil && n.NativeCurrency.Symbol != "" {
		return n.NativeCurrency.Symbol
	}
	return "ETH" // the dev networks' coin, and most EVM networks'
}

// usd is wei at price, for the report: "$12.34"; "" without a price.
func usd(wei *big.Int, price float64) string {
	if price <= 0 {
		return ""
	}
	coins, _ := new(big.Float).Quo(new(big.Float).SetInt(wei), big.NewFloat(1e18)).Float64()
	return fmt.Sprintf("$%.2f", coins*price)
}

func printSponsorTable(w io.Writer, rows []bundler.BalanceReport, names map[string]string, nets *network.Registry) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROJECT\tNAME\tNETWORK\tFUNDED\tSPENT\tRESERVED\tLEFT\tSPENT TODAY\tOPERATIONS TODAY")
	priced := map[string]bundler.BalanceReport{}
	for _, r := range rows {
		sym := symbolOf(nets, r.Network)
		cell := func(v *big.Int) string {
			if u := usd(v, r.USD); u != "" {
				return bundler.FormatNative(v, sym) + " (" + u + ")"
			}
			return bundler.FormatNative(v, sym)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", r.ProjectID, names[r.ProjectID], r.Network, cell(r.Funded), cell(r.Spent), cell(r.Reserved), cell(r.Left), cell(r.SpentToday), r.IncludedToday)
		if r.USD > 0 {
			priced[r.Network] = r
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for id, r := range priced {
		fmt.Fprintf(w, "USD at %s's last price latchd read, $%.2f on %s\n", id, r.USD, r.PriceAt.UTC().Format(time.RFC3339))
	}
	return nil
}

// sponsorRow is one row of latchd sponsor report --json; amounts are wei.
type sponsorRow struct {
	ProjectID     string   `json:"projectId"`
	Name          string   `json:"name"`
	Network       string   `json:"network"`
	Symbol        string   `json:"symbol"`
	Funded        string   `json:"funded"`
	Spent         string   `json:"spent"`
	Reserved      string   `json:"reserved"`
	Left          string   `json:"left"`
	SpentToday    string   `json:"spentToday"`
	IncludedToday int64    `json:"operationsToday"`
	USDPrice      *float64 `json:"usdPrice,omitempty"`
	PriceAt       string   `json:"priceAt,omitempty"`
}

func printSponsorJSON(w io.Writer, rows []bundler.BalanceReport, names map[string]string, nets *network.Registry) error {
	out := make([]sponsorRow, 0, len(rows))
	for _, r := range rows {
		row := sponsorRow{ProjectID: r.ProjectID, Name: names[r.ProjectID], Network: r.Network, Symbol: symbolOf(nets, r.Network),
			Funded: r.Funded.String(), Spent: r.Spent.String(), Reserved: r.Reserved.String(), Left: r.Left.String(), SpentToday: r.SpentToday.String(), IncludedToday: r.IncludedToday}
		if r.USD > 0 {
			price := r.USD
			row.USDPrice, row.PriceAt = &price, r.PriceAt.UTC().Format(time.RFC3339)
		}
		out = append(out, row)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
