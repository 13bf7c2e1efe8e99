-- Names that cannot be squatted in bulk (internal/names, docs/names.md).
-- Times are Unix seconds.

-- A name's confusable skeleton (names.Skeleton: confusables.txt's ASCII
-- entries 0 → o, 1 → l, m → rn), unique per zone, so that a look-alike of a
-- registered name is found with one indexed query and two look-alikes
-- registered at once cannot both win. Names registered before this
-- migration get theirs here; of look-alikes already registered, the oldest
-- keeps the skeleton and the others have none (NULL), so they stay
-- registered and block nothing that the oldest does not block already.
-- account is the Latch account (auth user id) whose session registered the
-- name; NULL for names registered before sessions were required.
ALTER TABLE names ADD COLUMN skeleton TEXT;
ALTER TABLE names ADD COLUMN account TEXT;
UPDATE names SET skeleton = REPLACE(REPLACE(REPLACE(label, '0', 'o'), '1', 'l'), 'm', 'rn');
UPDATE names SET skeleton = NULL WHERE EXISTS (
    SELECT 1 FROM names AS first
    WHERE first.zone = names.zone AND first.skeleton = names.skeleton
      AND (first.registered_at < names.registered_at OR (first.registered_at = names.registered_at AND first.label < names.label)));
CREATE UNIQUE INDEX names_skeleton ON names (zone, skeleton);

-- Names the operator reserved with `latchd names reserve` (besides the
-- built-in list, --names-reserved-file and the projects' names, which are
-- configuration). Read at every registration, so a reservation or release
-- holds on every node at once.
CREATE TABLE name_reserved (
    label        TEXT PRIMARY KEY,
    skeleton     TEXT NOT NULL,
    reserved_at  INTEGER NOT NULL
);
CREATE INDEX name_reserved_skeleton ON name_reserved (skeleton);

-- The key that signs for a Latch account's names: set by the account's first
-- registration (its embedded wallet's EOA), after which the account registers
-- only for that key's address and its smart account.
CREATE TABLE name_owners (
    account   TEXT PRIMARY KEY,
    owner     TEXT NOT NULL,
    bound_at  INTEGER NOT NULL
);

-- Registrations left per Latch account and per client IP: used counts the
-- registrations since window_start, and the window is a day. A row is
-- charged in the registration's own transaction, so a refused registration
-- costs nothing; rows of ended windows are deleted.
CREATE TABLE name_quota (
    key           TEXT PRIMARY KEY,
    window_start  INTEGER NOT NULL,
    used          INTEGER NOT NULL
);
CREATE INDEX name_quota_window ON name_quota (window_start);
