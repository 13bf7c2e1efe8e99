package names

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/apperr"
)

// DefaultReserved are the names no visitor registers, whatever the
// operator configures: names that would pass for the deployment, its
// staff or its wallet. --names-reserved-file and `latchd names reserve`
// add to them; the projects' own names are reserved too (ProjectLabels).
var DefaultReserved = []string{
	"admin", "administrator", "root", "system", "official", "staff", "team",
	"support", "help", "helpdesk", "contact", "info", "abuse", "security",
	"postmaster", "hostmaster", "webmaster", "noreply", "no-reply",
	"wallet", "wallets", "account", "accounts", "billing", "payments",
	"login", "signin", "verify", "verified", "recovery", "moderator",
	"latch", "latchd", "latchkit",
}

// reservedMatch is the reserved label a wanted one equals or looks like.
type reservedMatch struct {
	label string // the reserved label it equals or looks like
	exact bool
}

// reservedSet holds reserved labels by skeleton: each skeleton's labels,
// so that a reserved label matches itself before any look-alike of it.
type reservedSet map[string][]string

func newReservedSet(labels []string) reservedSet {
	set := reservedSet{}
	for _, l := range labels {
		set.add(l)
	}
	return set
}

func (s reservedSet) add(label string) {
	s[Skeleton(label)] = append(s[Skeleton(label)], label)
}

func (s reservedSet) match(label string) (reservedMatch, bool) {
	alike := s[Skeleton(label)]
	for _, r := range alike {
		if r == label {
			return reservedMatch{label: r, exact: true}, true
		}
	}
	if len(alike) == 0 {
		return reservedMatch{}, false
	}
	return reservedMatch{label: alike[0]}, true
}

// ReadReservedFile reads a reserved-names file: one name a line (a label, or
// a full name of zone), blank lines and text after # ignored. An error names
// the line that breaks a name rule.
func ReadReservedFile(path, zone string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseReserved(f, path, zone)
}

func parseReserved(r io.Reader, name, zone string) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		label, err := SplitName(line, zone)
		if err != nil {
			msg := err.Error()
			if e := apperr.As(err); e != nil {
				msg = e.Message
			}
			return nil, fmt.Errorf("%s:%d: %q: %s", name, n, clip(line), msg)
		}
		out = append(out, label)
	}
	return out, sc.Err()
}

// ProjectLabels are the labels a project's name reserves: the name
// lower-cased with every run of other characters than a-z and 0-9 made one
// hyphen ("Acme Pay!" → "acme-pay"), and the same without hyphens
// ("acmepay"); each only when it is a valid name.
func ProjectLabels(projectName string) []string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(projectName) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			hyphen = false
			continue
		}
		hyphen = true
	}
	var out []string
	for _, l := range []string{b.String(), strings.ReplaceAll(b.String(), "-", "")} {
		if _, err := NormalizeLabel(l); err == nil && (len(out) == 0 || out[0] != l) {
			out = append(out, l)
		}
	}
	return out
}

// Reserve adds a name (a label or a full name of the zone) to the
// operator's reserved names in the database; it holds for every node at
// the next registration. Reserving a name already reserved changes
// nothing. A registered name stays with its holder: reserving it stops
// others only. registeredTo is its holder then, "" otherwise.
// Errors: apperr.Invalid for a name that breaks the rules.
func (s *Service) Reserve(ctx context.Context, name string) (label, registeredTo string, err error) {
	if label, err = SplitName(name, s.cfg.Zone); err != nil {
		return "", "", err
	}
	if _, err := s.cfg.DB.Exec(ctx, `INSERT INTO name_reserved (label, skeleton, reserved_at) VALUES (?, ?, ?) ON CONFLICT (label) DO NOTHING`,
		label, Skeleton(label), s.cfg.Now().Unix()); err != nil {
		return "", "", fmt.Errorf("names: reserve: %w", err)
	}
	rec, err := s.Lookup(ctx, label)
	if err != nil || rec == nil {
		return label, "", err
	}
	return label, rec.Owner().Hex(), nil
}

// Release removes a name from the operator's reserved names in the
// database. found is false when it was not there (a built-in or file
// reservation is configuration, not released here). Errors: apperr.Invalid
// for a name that breaks the rules.
func (s *Service) Release(ctx context.Context, name string) (label string, found bool, err error) {
	if label, err = SplitName(name, s.cfg.Zone); err != nil {
		return "", false, err
	}
	res, err := s.cfg.DB.Exec(ctx, `DELETE FROM name_reserved WHERE label = ?`, label)
	if err != nil {
		return "", false, fmt.Errorf("names: release: %w", err)
	}
	n, err := res.RowsAffected()
	return label, n > 0, err
}

// ReservedName is a name the operator reserved in the database.
type ReservedName struct {
	Label      string
	ReservedAt time.Time
}

// ReservedNames lists the operator's reserved names in the database, by label.
func (s *Service) ReservedNames(ctx context.Context) ([]ReservedName, error) {
	rows, err := s.cfg.DB.Query(ctx, `SELECT label, reserved_at FROM name_reserved ORDER BY label`)
	if err != nil {
		return nil, fmt.Errorf("names: reserved: %w", err)
	}
	defer rows.Close()
	var out []ReservedName
	for rows.Next() {
		var r ReservedName
		var at int64
		if err := rows.Scan(&r.Label, &at); err != nil {
			return nil, err
		}
		r.ReservedAt = time.Unix(at, 0).UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}
