package names

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/apperr"
)

// The rules that keep names from being squatted in bulk (docs/names.md):
// reserved names, look-alikes, the auth connector's account and the daily
// registrations per account and per IP.

// RetryError is a refusal that may be retried after RetryAfter (HTTP 429
// with Retry-After).
type RetryError struct {
	Err        *apperr.Error
	RetryAfter time.Duration
}

func (e *RetryError) Error() string { return e.Err.Error() }

// Unwrap lets apperr.As find the *apperr.Error.
func (e *RetryError) Unwrap() error { return e.Err }

// quotaWindow is the period of AccountDaily and IPDaily.
const quotaWindow = 24 * time.Hour

// availability is whether a label can be registered: taken (registered,
// by anyone but the asking address) or, when free, the reason it is
// blocked: reserved, or a look-alike (Skeleton) of a reserved or registered
// name, naming that name ("" when it is not blocked).
type availability struct {
	taken  bool
	reason string
}

// available answers availability for each of labels with one query of the
// database (the registered names and the operator's reserved ones) besides
// the configured reserved names and the projects' names. A label addr holds
// is available to addr (its holder updates it).
func (s *Service) available(ctx context.Context, labels []string, addr *common.Address) (map[string]availability, error) {
	out := make(map[string]availability, len(labels))
	projects := reservedSet{}
	if s.cfg.ProjectNames != nil {
		list, err := s.cfg.ProjectNames(ctx)
		if err != nil {
			return nil, fmt.Errorf("names: project names: %w", err)
		}
		for _, n := range list {
			for _, l := range ProjectLabels(n) {
				projects.add(l)
			}
		}
	}
	skeletons := make([]any, 0, len(labels))
	marks := make([]string, 0, len(labels))
	for _, l := range labels {
		skeletons = append(skeletons, Skeleton(l))
		marks = append(marks, "?")
	}
	in := strings.Join(marks, ", ")
	// One indexed query: the registered names of the labels or of their
	// skeletons, and the operator's reserved names of the skeletons.
	args := append(append(append([]any{s.cfg.Zone}, skeletons...), quoted(labels)...), skeletons...)
	rows, err := s.cfg.DB.Query(ctx, `SELECT label, COALESCE(skeleton, ''), address FROM names WHERE zone = ? AND (skeleton IN (`+in+`) OR label IN (`+in+`))
		UNION ALL SELECT label, skeleton, '' FROM name_reserved WHERE skeleton IN (`+in+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("names: look-alikes: %w", err)
	}
	defer rows.Close()
	registered, reserved, holders := map[string]string{}, reservedSet{}, map[string]string{}
	for rows.Next() {
		var label, skeleton, address string
		if err := rows.Scan(&label, &skeleton, &address); err != nil {
			return nil, err
		}
		switch {
		case address == "":
			reserved.add(label)
		case skeleton != "":
			registered[skeleton] = label
			fallthrough
		default:
			holders[label] = address
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, l := range labels {
		if holder := holders[l]; holder != "" {
			out[l] = availability{taken: addr == nil || holder != lowerHex(*addr)}
			continue
		}
		var reason string
		for _, set := range []reservedSet{reserved, s.reserved, projects} {
			if m, ok := set.match(l); ok {
				reason = s.reservedReason(l, m)
				break
			}
		}
		if r, ok := registered[Skeleton(l)]; ok && reason == "" {
			reason = fmt.Sprintf("%s.%s looks like %s.%s, which is already registered", l, s.cfg.Zone, r, s.cfg.Zone)
		}
		out[l] = availability{reason: reason}
	}
	return out, nil
}

func (s *Service) reservedReason(label string, m reservedMatch) string {
	if m.exact {
		return fmt.Sprintf("The name %s.%s is reserved", label, s.cfg.Zone)
	}
	return fmt.Sprintf("%s.%s looks like %s.%s, which is reserved", label, s.cfg.Zone, m.label, s.cfg.Zone)
}

// checkAvailable refuses a label that is taken, reserved or a look-alike
// (apperr.Conflict naming the name it clashes with); a name addr holds is
// available to it. The registration's transaction checks again what a
// concurrent one may change (taken, and a look-alike by the unique skeleton).
func (s *Service) checkAvailable(ctx context.Context, label string, addr common.Address) error {
	a, err := s.available(ctx, []string{label}, &addr)
	if err != nil {
		return err
	}
	switch {
	case a[label].taken:
		return errTaken(label, s.cfg.Zone)
	case a[label].reason != "":
		return apperr.Fieldf(apperr.Conflict, "name", "%s", a[label].reason)
	}
	return nil
}

// ownerOf returns the key that signed for addr, when addr is an account of
// that key: the key's own address, or its smart account on the chain.
// Anything else (another smart account, a signature no key recovers from)
// is not the auth connector's account: apperr.Forbidden MsgAddressNotFound.
func (s *Service) ownerOf(ctx context.Context, chainID uint64, addr common.Address, message, sig []byte) (common.Address, error) {
	owner, ok := signerOf(message, sig)
	if !ok {
		return common.Address{}, errNotTheAccount()
	}
	if owner == addr {
		return owner, nil
	}
	if s.cfg.SmartAccount == nil {
		return common.Address{}, errNotTheAccount()
	}
	account, ok, err := s.cfg.SmartAccount(ctx, chainID, owner)
	if err != nil {
		s.cfg.Logger.Warn("names: smart account lookup failed", "owner", owner.Hex(), "chainId", chainID, "err", err)
		return common.Address{}, apperr.Errorf(apperr.Unavailable, "The account could not be checked; retry later")
	}
	if !ok || account != addr {
		return common.Address{}, errNotTheAccount()
	}
	return owner, nil
}

func errNotTheAccount() error {
	return apperr.Fieldf(apperr.Forbidden, "address", MsgAddressNotFound)
}

// bindOwner ties a Latch account to the key of its first registration and
// refuses any other key afterwards: an account registers for its own
// wallet, not for addresses it collects.
func (s *Service) bindOwner(ctx context.Context, tx *sql.Tx, account string, owner common.Address, now int64) error {
	db := s.cfg.DB
	var bound string
	err := tx.QueryRowContext(ctx, db.Rebind(`SELECT owner FROM name_owners WHERE account = ?`), account).Scan(&bound)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		_, err = tx.ExecContext(ctx, db.Rebind(`INSERT INTO name_owners (account, owner, bound_at) VALUES (?, ?, ?)`), account, lowerHex(owner), now)
		return err
	case err != nil:
		return err
	case bound != lowerHex(owner):
		s.cfg.Logger.Info("names: an account registered with another key", "account", account, "owner", bound, "signer", owner.Hex())
		return errNotTheAccount()
	}
	return nil
}

// chargeQuotas spends one of the day's registrations of the caller's
// account and of its IP, in the registration's transaction: if anything
// after it refuses the registration, the charge is rolled back with it.
func (s *Service) chargeQuotas(ctx context.Context, tx *sql.Tx, caller Caller, now time.Time) error {
	db := s.cfg.DB
	if _, err := tx.ExecContext(ctx, db.Rebind(`DELETE FROM name_quota WHERE window_start <= ?`), now.Add(-quotaWindow).Unix()); err != nil {
		return err
	}
	for _, q := range []struct {
		key, who string
		limit    int
	}{
		{"account:" + caller.Account, "Your account", s.cfg.AccountDaily},
		{"ip:" + ipKey(caller.IP), "Your network (IP address)", s.cfg.IPDaily},
	} {
		if q.limit <= 0 || q.key == "ip:" {
			continue
		}
		retry, ok, err := charge(ctx, tx, db.Rebind, q.key, q.limit, now)
		if err != nil {
			return err
		}
		if !ok {
			return &RetryError{
				Err:        apperr.Errorf(apperr.RateLimited, "%s may register %d %s a day; try again in %s", q.who, q.limit, plural(q.limit, "name", "names"), roughly(retry)),
				RetryAfter: retry,
			}
		}
	}
	return nil
}

// ipKey is the network an IP's daily registrations are counted for: the
// address itself for IPv4, its /64 for IPv6, where one subscriber commonly
// holds a whole /64 and could otherwise count as billions of clients.
func ipKey(ip string) string {
	addr, err := netip.ParseAddr(ip)
	if err != nil || addr.Unmap().Is4() {
		return ip
	}
	prefix, _ := addr.Prefix(64)
	return prefix.String()
}

// charge spends one of key's limit events of the window, or reports how
// long until its window ends. The conditional UPDATE is atomic in both
// dialects, so concurrent registrations cannot both spend the last one.
func charge(ctx context.Context, tx *sql.Tx, rebind func(string) string, key string, limit int, now time.Time) (time.Duration, bool, error) {
	if _, err := tx.ExecContext(ctx, rebind(`INSERT INTO name_quota (key, window_start, used) VALUES (?, ?, 0) ON CONFLICT (key) DO NOTHING`), key, now.Unix()); err != nil {
		return 0, false, err
	}
	ended := now.Add(-quotaWindow).Unix()
	res, err := tx.ExecContext(ctx, rebind(`UPDATE name_quota
		SET used = CASE WHEN window_start <= ? THEN 1 ELSE used + 1 END,
		    window_start = CASE WHEN window_start <= ? THEN ? ELSE window_start END
		WHERE key = ? AND (window_start <= ? OR used < ?)`), ended, ended, now.Unix(), key, ended, limit)
	if err != nil {
		return 0, false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return 0, err == nil, err
	}
	var start int64
	if err := tx.QueryRowContext(ctx, rebind(`SELECT window_start FROM name_quota WHERE key = ?`), key).Scan(&start); err != nil {
		return 0, false, err
	}
	return time.Unix(start, 0).Add(quotaWindow).Sub(now), false, nil
}

// roughly writes d for a person: whole minutes, rounded up, as hours and minutes.
func roughly(d time.Duration) string {
	m := int((d + time.Minute - 1) / time.Minute)
	switch {
	case m >= 60 && m%60 == 0:
		return fmt.Sprintf("%d h", m/60)
	case m >= 60:
		return fmt.Sprintf("%d h %d min", m/60, m%60)
	}
	return fmt.Sprintf("%d min", max(m, 1))
}

func plural(n int, one, other string) string {
	if n == 1 {
		return one
	}
	return other
}

func quoted(labels []string) []any {
	out := make([]any, len(labels))
	for i, l := range labels {
		out[i] = l
	}
	return out
}

func errTaken(label, zone string) error {
	return apperr.Fieldf(apperr.Conflict, "name", "The name %s.%s is taken", label, zone)
}
