package names

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/store"
)

// TimestampWindow is how far a register message's timestamp may be from
// latchd's clock, either way (AppKit's server: 10 s).
const TimestampWindow = 10 * time.Second

// CoinTypeETH is the ENSIP-9 coin type of Ethereum mainnet addresses; every
// registration is stored under it too, as ENS clients ask for it.
const CoinTypeETH = 60

// evmCoinTypeBit marks an ENSIP-11 coin type of an EVM chain: 0x80000000 | chainId.
const evmCoinTypeBit = 0x80000000

// Attribute keys a registration may set, and their limits.
var allowedAttributes = map[string]bool{"avatar": true, "bio": true}

const maxAttributeLength = 512

// Config configures a Service.
type Config struct {
	DB *store.DB
	// Zone is the deployment's zone, e.g. "latch.test".
	Zone     string
	Verifier Verifier
	// ChainSupported says whether latchd serves the EVM chain, whose coin
	// type a registration may then name.
	ChainSupported func(chainID uint64) bool
	// Now is the clock; nil is time.Now.
	Now    func() time.Time
	Logger *slog.Logger
	// Registered, when set, is called after a registration is stored (to
	// refresh cached identities); it must not block for long.
	Registered func(ctx context.Context, addr common.Address)

	// Reserved are the reserved labels of the configuration
	// (DefaultReserved and --names-reserved-file); nil reserves none.
	Reserved []string
	// ProjectNames, when set, returns the projects' names, whose labels
	// (ProjectLabels) are reserved too; read at every check, so a new
	// project's name is reserved at once.
	ProjectNames func(ctx context.Context) ([]string, error)
	// SmartAccount returns owner's smart account on the chain (its account
	// factory's address for owner, salt 0); ok is false where latchd runs
	// no factory. nil: only the owner key's own address is its account.
	SmartAccount func(ctx context.Context, chainID uint64, owner common.Address) (account common.Address, ok bool, err error)
	// AccountDaily and IPDaily are how many names one Latch account and one
	// client IP may register a day; 0 is no limit.
	AccountDaily, IPDaily int
}

// Service registers and looks up the names of one zone.
type Service struct {
	cfg      Config
	reserved reservedSet
}

// New returns a Service. The zone must be valid (ValidateZone), and the
// reserved labels normalised (NormalizeLabel).
func New(cfg Config) (*Service, error) {
	if err := ValidateZone(cfg.Zone); err != nil {
		return nil, err
	}
	for _, l := range cfg.Reserved {
		if n, err := NormalizeLabel(l); err != nil || n != l {
			return nil, fmt.Errorf("reserved name %q is not a normalised name", l)
		}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Service{cfg: cfg, reserved: newReservedSet(cfg.Reserved)}, nil
}

// Zone is the service's zone.
func (s *Service) Zone() string { return s.cfg.Zone }

// Address is one address of a name under a coin type.
type Address struct {
	Address   string `json:"address"`
	CreatedAt string `json:"created_at"`
}

// Record is a registered name, in the shape of AppKit's profile API.
type Record struct {
	Name         string             `json:"name"`
	RegisteredAt string             `json:"registered_at"`
	UpdatedAt    string             `json:"updated_at"`
	Attributes   map[string]string  `json:"attributes"`
	Addresses    map[string]Address `json:"addresses"`

	owner common.Address
}

// Owner is the address the name was registered for.
func (r *Record) Owner() common.Address { return r.owner }

// Registration is a register request: the account's signed message and the
// coin type of the chain it signed on (POST /v1/profile/account).
type Registration struct {
	CoinType  uint64 `json:"coin_type"`
	Address   string `json:"address"`
	Message   string `json:"message"`
	Signature string `json:"signature"`
}

// message is what the account signs: JSON {name, attributes, timestamp}.
type message struct {
	Name       string            `json:"name"`
	Attributes map[string]string `json:"attributes"`
	Timestamp  *int64            `json:"timestamp"` // Unix seconds
}

// ChainOfCoinType returns the EVM chain id of an ENSIP-11 coin type
// (0x80000000 | chainId; 60 is Ethereum mainnet).
func ChainOfCoinType(coinType uint64) (uint64, bool) {
	if coinType == CoinTypeETH {
		return 1, true
	}
	if coinType&evmCoinTypeBit == 0 || coinType > 0xffffffff {
		return 0, false
	}
	return coinType &^ evmCoinTypeBit, true
}

// CoinTypeOfChain is the ENSIP-11 coin type of an EVM chain id; ok is false
// for chain ids of 2^31 and more, which have none.
func CoinTypeOfChain(chainID uint64) (uint64, bool) {
	if chainID >= evmCoinTypeBit {
		return 0, false
	}
	return evmCoinTypeBit | chainID, true
}

// Caller is who asks for a registration: the Latch account whose auth
// session (e-mail or social login) came with the request, and the client's IP.
type Caller struct {
	Account string // the auth user id; "" without a session
	IP      string
}

// MsgAddressNotFound is spec §5's refusal of a registration without the auth
// connector: no session of the embedded wallet, or an address that is not its
// account's.
const MsgAddressNotFound = "Address or auth connector not found"

// Register registers the name of reg's signed message for reg's address, for
// the Latch account of caller.
//
// Rules: the caller has a Latch account (its auth session came with the
// request), and reg's address is that account's: the key that signed is the
// key the account registered with before (the first registration sets it),
// and the address is that key's own or its smart account (Config.SmartAccount).
// The message is {name, attributes, timestamp}, its name a label of the zone
// (NormalizeLabel), neither reserved nor a look-alike (Skeleton) of a reserved
// or registered name, its timestamp within TimestampWindow of now; the coin
// type names a chain latchd serves; the signature is the address's (EOA,
// ERC-1271 or ERC-6492); a message is accepted once. An address holds one
// name per zone: registering the name it holds again updates its attributes,
// any other name is refused while it holds one. A new name spends one of the
// account's and one of the IP's registrations of the day (AccountDaily,
// IPDaily); a refused one spends none.
//
// Errors: apperr.Invalid (malformed request, a broken name rule, a stale
// timestamp, an unsupported coin type), apperr.Unauthorized (no session:
// MsgAddressNotFound; the signature is not the address's), apperr.Forbidden
// (the address is not the account's: MsgAddressNotFound), apperr.Conflict
// (the name is taken, reserved or a look-alike, the address holds another
// name, the message was already used), apperr.RateLimited in a *RetryError
// (the day's registrations are spent), apperr.Unavailable (the signature or
// the smart account could not be checked).
func (s *Service) Register(ctx context.Context, reg Registration, caller Caller) (*Record, error) {
	if caller.Account == "" {
		return nil, apperr.Fieldf(apperr.Unauthorized, "Authorization", MsgAddressNotFound)
	}
	if !common.IsHexAddress(reg.Address) || !strings.HasPrefix(reg.Address, "0x") {
		return nil, apperr.Fieldf(apperr.Invalid, "address", "%q is not an EVM address", clip(reg.Address))
	}
	addr := common.HexToAddress(reg.Address)
	chainID, ok := ChainOfCoinType(reg.CoinType)
	if !ok || s.cfg.ChainSupported == nil || !s.cfg.ChainSupported(chainID) {
		return nil, apperr.Fieldf(apperr.Invalid, "coin_type", "Unsupported coin type %d", reg.CoinType)
	}
	var msg message
	dec := json.NewDecoder(strings.NewReader(reg.Message))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&msg); err != nil || msg.Timestamp == nil {
		return nil, apperr.Fieldf(apperr.Invalid, "message", "The message must be JSON {name, attributes, timestamp}")
	}
	label, err := SplitName(msg.Name, s.cfg.Zone)
	if err != nil {
		return nil, err
	}
	if err := checkAttributes(msg.Attributes); err != nil {
		return nil, err
	}
	now := s.cfg.Now()
	signedAt := time.Unix(*msg.Timestamp, 0)
	if d := now.Sub(signedAt); d > TimestampWindow || d < -TimestampWindow {
		return nil, apperr.Fieldf(apperr.Invalid, "message", "The message's timestamp is more than %d seconds from the server's clock; sign a new message", int(TimestampWindow/time.Second))
	}
	sig, err := decodeHex(reg.Signature)
	if err != nil || len(sig) == 0 {
		return nil, apperr.Fieldf(apperr.Invalid, "signature", "The signature must be 0x-prefixed hex")
	}
	// Refused names are refused before the signature check, which may cost an eth_call.
	if err := s.checkAvailable(ctx, label, addr); err != nil {
		return nil, err
	}
	switch err := s.cfg.Verifier.VerifyPersonal(ctx, chainID, addr, []byte(reg.Message), sig); {
	case errors.Is(err, ErrBadSignature):
		return nil, apperr.Fieldf(apperr.Unauthorized, "signature", "The message was not signed by %s", addr.Hex())
	case err != nil:
		s.cfg.Logger.Warn("names: signature check failed", "address", addr.Hex(), "chainId", chainID, "err", err)
		return nil, apperr.Errorf(apperr.Unavailable, "The signature could not be checked; retry later")
	}
	owner, err := s.ownerOf(ctx, chainID, addr, []byte(reg.Message), sig)
	if err != nil {
		return nil, err
	}

	digest := sha256.Sum256(append(addr.Bytes(), reg.Message...))
	attrs, _ := json.Marshal(nonNil(msg.Attributes))
	nowSec := now.Unix()
	db := s.cfg.DB
	err = db.InTx(ctx, func(tx *sql.Tx) error {
		// Messages older than twice the window can no longer pass the
		// timestamp check, so their digests are no longer needed.
		if _, err := tx.ExecContext(ctx, db.Rebind(`DELETE FROM name_messages WHERE used_at < ?`), nowSec-2*int64(TimestampWindow/time.Second)); err != nil {
			return err
		}
		var used int
		if err := tx.QueryRowContext(ctx, db.Rebind(`SELECT COUNT(*) FROM name_messages WHERE digest = ?`), digest[:]).Scan(&used); err != nil {
			return err
		}
		if used > 0 {
			return apperr.Fieldf(apperr.Conflict, "message", "This message was already used; sign a new one")
		}
		if _, err := tx.ExecContext(ctx, db.Rebind(`INSERT INTO name_messages (digest, used_at) VALUES (?, ?)`), digest[:], nowSec); err != nil {
			return err
		}
		if err := s.bindOwner(ctx, tx, caller.Account, owner, nowSec); err != nil {
			return err
		}
		var holder string
		err := tx.QueryRowContext(ctx, db.Rebind(`SELECT address FROM names WHERE zone = ? AND label = ?`), s.cfg.Zone, label).Scan(&holder)
		switch {
		case err == nil && holder != lowerHex(addr):
			return errTaken(label, s.cfg.Zone)
		case err == nil:
			_, err = tx.ExecContext(ctx, db.Rebind(`UPDATE names SET attributes = ?, coin_type = ?, updated_at = ? WHERE zone = ? AND label = ?`), string(attrs), int64(reg.CoinType), nowSec, s.cfg.Zone, label)
			return err
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		var held string
		err = tx.QueryRowContext(ctx, db.Rebind(`SELECT label FROM names WHERE zone = ? AND address = ?`), s.cfg.Zone, lowerHex(addr)).Scan(&held)
		if err == nil {
			return apperr.Fieldf(apperr.Conflict, "name", "%s already has the name %s.%s", addr.Hex(), held, s.cfg.Zone)
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err := s.chargeQuotas(ctx, tx, caller, now); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, db.Rebind(`INSERT INTO names (zone, label, address, coin_type, attributes, registered_at, updated_at, skeleton, account) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			s.cfg.Zone, label, lowerHex(addr), int64(reg.CoinType), string(attrs), nowSec, nowSec, Skeleton(label), caller.Account)
		return err
	})
	if err != nil {
		if apperr.Code(err) != apperr.Internal {
			return nil, err
		}
		if isUniqueViolation(err) {
			// A concurrent registration of the same name, a look-alike of
			// it, the same address or message, or the account's first won.
			return nil, apperr.Fieldf(apperr.Conflict, "name", "The name %s.%s, a name like it or this message was just registered; try again", label, s.cfg.Zone)
		}
		return nil, fmt.Errorf("names: register: %w", err)
	}
	if s.cfg.Registered != nil {
		s.cfg.Registered(ctx, addr)
	}
	return s.Lookup(ctx, label)
}

func checkAttributes(attrs map[string]string) error {
	for k, v := range attrs {
		if !allowedAttributes[k] {
			return apperr.Fieldf(apperr.Invalid, "message", "Unknown attribute %q (allowed: avatar, bio)", clip(k))
		}
		if len(v) > maxAttributeLength {
			return apperr.Fieldf(apperr.Invalid, "message", "The attribute %s is over %d bytes", k, maxAttributeLength)
		}
		// The avatar is shown as an image by the widget and by ENS clients.
		if k == "avatar" && v != "" && !strings.HasPrefix(v, "https://") && !strings.HasPrefix(v, "data:image/") {
			return apperr.Fieldf(apperr.Invalid, "message", "The avatar must be an https:// or data:image/ URL")
		}
	}
	return nil
}

// Lookup returns the record of a name of the zone (a label or a full
// name), or nil when it is not registered. Errors: apperr.Invalid for a
// name that breaks the rules.
func (s *Service) Lookup(ctx context.Context, name string) (*Record, error) {
	label, err := SplitName(name, s.cfg.Zone)
	if err != nil {
		return nil, err
	}
	recs, err := s.query(ctx, `WHERE zone = ? AND label = ?`, s.cfg.Zone, label)
	if err != nil || len(recs) == 0 {
		return nil, err
	}
	return &recs[0], nil
}

// Reverse returns the names of an address in the zone (at most one).
func (s *Service) Reverse(ctx context.Context, addr common.Address) ([]Record, error) {
	return s.query(ctx, `WHERE zone = ? AND address = ?`, s.cfg.Zone, lowerHex(addr))
}

func (s *Service) query(ctx context.Context, where string, args ...any) ([]Record, error) {
	rows, err := s.cfg.DB.Query(ctx, `SELECT label, address, coin_type, attributes, registered_at, updated_at FROM names `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("names: query: %w", err)
	}
	defer rows.Close()
	recs := []Record{}
	for rows.Next() {
		var label, address, attrs string
		var coinType, registered, updated int64
		if err := rows.Scan(&label, &address, &coinType, &attrs, &registered, &updated); err != nil {
			return nil, fmt.Errorf("names: scan: %w", err)
		}
		rec := Record{
			Name: label + "." + s.cfg.Zone, RegisteredAt: timeString(registered), UpdatedAt: timeString(updated),
			Attributes: map[string]string{}, owner: common.HexToAddress(address),
		}
		json.Unmarshal([]byte(attrs), &rec.Attributes)
		owner := rec.owner.Hex()
		rec.Addresses = map[string]Address{fmt.Sprint(CoinTypeETH): {Address: owner, CreatedAt: timeString(registered)}}
		rec.Addresses[fmt.Sprint(coinType)] = Address{Address: owner, CreatedAt: timeString(registered)}
		recs = append(recs, rec)
	}
	return recs, rows.Err()
}

// Suggestion is a name offered for a wanted one.
type Suggestion struct {
	Name string `json:"name"`
	// Registered is true when the name cannot be registered: it is taken,
	// or (with Reason) reserved or a look-alike of a reserved or registered name.
	Registered bool `json:"registered"`
	// Reason says why a free name cannot be registered; "" otherwise.
	Reason string `json:"reason,omitempty"`
}

// maxSuggestions is how many free alternatives Suggestions offers.
const maxSuggestions = 5

// Suggestions returns the wanted name with whether it can be registered,
// then, when it cannot, up to maxSuggestions names built from it that can.
// Errors: apperr.Invalid for a name that breaks the rules.
func (s *Service) Suggestions(ctx context.Context, name string) ([]Suggestion, error) {
	label, err := SplitName(name, s.cfg.Zone)
	if err != nil {
		return nil, err
	}
	candidates := []string{label}
	for _, suffix := range []string{"1", "2", "3", "-eth", "-web3", "x", "7", "42", "-io", "-hq", "99", "-dao"} {
		if c := label + suffix; len(c) <= MaxLabelLength {
			candidates = append(candidates, c)
		}
	}
	avail, err := s.available(ctx, candidates, nil)
	if err != nil {
		return nil, err
	}
	a := avail[label]
	out := []Suggestion{{Name: label + "." + s.cfg.Zone, Registered: a.taken || a.reason != "", Reason: a.reason}}
	if !out[0].Registered {
		return out, nil
	}
	for _, c := range candidates[1:] {
		if len(out) > maxSuggestions {
			break
		}
		if a := avail[c]; !a.taken && a.reason == "" {
			out = append(out, Suggestion{Name: c + "." + s.cfg.Zone})
		}
	}
	return out, nil
}

func lowerHex(a common.Address) string { return strings.ToLower(a.Hex()) }

func timeString(unix int64) string { return time.Unix(unix, 0).UTC().Format(time.RFC3339) }

func nonNil(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

func decodeHex(s string) ([]byte, error) {
	if !strings.HasPrefix(s, "0x") && !strings.HasPrefix(s, "0X") {
		return nil, errors.New("no 0x prefix")
	}
	return hex.DecodeString(s[2:])
}

// isUniqueViolation recognises SQLite's and Postgres's unique-constraint errors.
func isUniqueViolation(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "unique") || strings.Contains(s, "duplicate key")
}
