package bundler

import (
	"context"
	"math/big"
	"sort"
	"strconv"
	"time"
)

// BalanceReport is one project's sponsorship on one network (latchd
// sponsor report). ProjectID "" gathers the operations latchd had no
// approval of.
type BalanceReport struct {
	ProjectID string
	Network   string
	Funded    *big.Int
	Spent     *big.Int
	Reserved  *big.Int // held by live approvals
	Left      *big.Int // Funded - Spent - Reserved
	// SpentToday and IncludedToday are since the start of the UTC day.
	SpentToday    *big.Int
	IncludedToday int64
	// USD is the last price latchd read for the network's native coin,
	// at PriceAt; 0 when it has none.
	USD     float64
	PriceAt time.Time
}

// Report returns every project's balance on every network it has one on,
// ordered by project and network, as of now.
func (s *Store) Report(ctx context.Context, now time.Time) ([]BalanceReport, error) {
	rows, err := s.db.Query(ctx, `SELECT b.project_id, b.network, b.funded, b.spent, COALESCE(d.spent, '0'), COALESCE(d.ops, 0), COALESCE(p.usd, ''), COALESCE(p.at, 0)
		FROM sponsor_balances b
		LEFT JOIN sponsor_daily d ON d.scope = 'project:' || b.project_id || ':' || b.network AND d.day = ?
		LEFT JOIN sponsor_prices p ON p.network = b.network
		ORDER BY b.project_id, b.network`, dayOf(now))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []BalanceReport
	index := map[[2]string]int{}
	for rows.Next() {
		var r BalanceReport
		var funded, spent, today, usd string
		var at int64
		if err := rows.Scan(&r.ProjectID, &r.Network, &funded, &spent, &today, &r.IncludedToday, &usd, &at); err != nil {
			return nil, err
		}
		for _, f := range []struct {
			dst **big.Int
			s   string
		}{{&r.Funded, funded}, {&r.Spent, spent}, {&r.SpentToday, today}} {
			if *f.dst, err = parseWei(f.s); err != nil {
				return nil, err
			}
		}
		if usd != "" {
			r.USD, _ = strconv.ParseFloat(usd, 64)
			r.PriceAt = time.UnixMilli(at)
		}
		r.Reserved = new(big.Int)
		index[[2]string{r.ProjectID, r.Network}] = len(out)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if err := s.addReserved(ctx, now, out, index); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Left = new(big.Int).Sub(out[i].Funded, out[i].Spent)
		out[i].Left.Sub(out[i].Left, out[i].Reserved)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].ProjectID != out[j].ProjectID {
			return out[i].ProjectID < out[j].ProjectID
		}
		return out[i].Network < out[j].Network
	})
	return out, nil
}

// addReserved adds each live slot (the largest approval of a sender and
// nonce) to its project's row.
func (s *Store) addReserved(ctx context.Context, now time.Time, out []BalanceReport, index map[[2]string]int) error {
	rows, err := s.db.Query(ctx, `SELECT project_id, network, amount FROM sponsor_slots WHERE valid_until >= ?`, now.UnixMilli())
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var project, network, amount string
		if err := rows.Scan(&project, &network, &amount); err != nil {
			return err
		}
		a, err := parseWei(amount)
		if err != nil {
			return err
		}
		if i, ok := index[[2]string{project, network}]; ok {
			out[i].Reserved.Add(out[i].Reserved, a)
		}
	}
	return rows.Err()
}
