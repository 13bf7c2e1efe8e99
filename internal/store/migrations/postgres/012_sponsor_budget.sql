-- Sponsorship budgets (internal/bundler, issue 33): what each project may
-- spend through the paymaster is its own balance in a ledger the operator
-- tops up (latchd sponsor fund); an approval reserves the operation's
-- maximum cost until it is included (settled from the EntryPoint's
-- UserOperationEvent) or its approval expires. Amounts are wei as decimal
-- strings: they do not fit 64 bits. Times are Unix milliseconds.

-- Approvals were counted here when signed, which let anyone use up another
-- account's allowance; sponsor_approvals and sponsor_slots replace it.
DROP TABLE bundler_sponsorships;

ALTER TABLE bundler_sponsor_policies ADD COLUMN daily_budget TEXT NOT NULL DEFAULT '';         -- wei per UTC day; '': the operator's default
ALTER TABLE bundler_sponsor_policies ADD COLUMN account_daily_budget TEXT NOT NULL DEFAULT ''; -- wei per account per UTC day; '': the operator's default
ALTER TABLE bundler_sponsor_policies ADD COLUMN require_session INTEGER NOT NULL DEFAULT 0;     -- 1: only operations with the visitor's Latch session

-- Every movement of a project's sponsorship balance on a network: the
-- operator's top-ups and each included operation's cost. id is
-- 'spend:<userOpHash>' for a spend (so an operation is settled once) and
-- 'fund:<random>' for a top-up. project_id is '' for a spend of an approval
-- latchd has no record of.
CREATE TABLE sponsor_ledger (
    id          TEXT PRIMARY KEY,
    project_id  TEXT NOT NULL,
    network     TEXT NOT NULL,
    kind        TEXT NOT NULL,  -- fund, spend
    amount      TEXT NOT NULL,
    note        TEXT NOT NULL DEFAULT '',
    created_at  BIGINT NOT NULL
);
CREATE INDEX sponsor_ledger_project ON sponsor_ledger (project_id, network, created_at);

-- The ledger's sums per project and network, kept with each entry.
CREATE TABLE sponsor_balances (
    project_id  TEXT NOT NULL,
    network     TEXT NOT NULL,
    funded      TEXT NOT NULL,
    spent       TEXT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (project_id, network)
);

-- What was spent (and how many operations were included) per UTC day and
-- scope: 'project:<id>:<network>', 'account:<id>:<network>:<sender>' or
-- 'network:<network>'.
CREATE TABLE sponsor_daily (
    scope  TEXT NOT NULL,
    day    BIGINT NOT NULL,
    spent  TEXT NOT NULL,
    ops    INTEGER NOT NULL,
    PRIMARY KEY (scope, day)
);

-- One row per signed approval: id is the approved operation's userOpHash,
-- so its UserOperationEvent finds the project whose approval it used.
CREATE TABLE sponsor_approvals (
    id           TEXT PRIMARY KEY,
    project_id   TEXT NOT NULL,
    network      TEXT NOT NULL,
    sender       TEXT NOT NULL,
    nonce        TEXT NOT NULL,
    amount       TEXT NOT NULL,             -- the operation's prefund: the most it can cost
    day          BIGINT NOT NULL,           -- the UTC day its spend counts against
    user_id      TEXT NOT NULL DEFAULT '',  -- the Latch session's user, when one came with it
    valid_until  BIGINT NOT NULL,
    created_at   BIGINT NOT NULL
);

-- What live approvals hold of the budgets: one row per project, sender and
-- nonce (of a nonce's approvals only one can be included), holding the
-- largest of their amounts until the last of them expires (valid_until)
-- or the nonce is used. Rows go when they end.
CREATE TABLE sponsor_slots (
    network      TEXT NOT NULL,
    sender       TEXT NOT NULL,
    project_id   TEXT NOT NULL,
    nonce        TEXT NOT NULL,
    amount       TEXT NOT NULL,
    valid_until  BIGINT NOT NULL,
    PRIMARY KEY (network, sender, project_id, nonce)
);
CREATE INDEX sponsor_slots_expiry ON sponsor_slots (network, valid_until);

-- The sums of sponsor_slots per project and network, kept with each
-- change so an approval reads them in one row: amount held and how many
-- slots.
CREATE TABLE sponsor_held (
    network     TEXT NOT NULL,
    project_id  TEXT NOT NULL,
    amount      TEXT NOT NULL,
    slots       INTEGER NOT NULL,
    PRIMARY KEY (network, project_id)
);

-- How far each network's UserOperationEvent logs have been settled.
CREATE TABLE sponsor_cursors (
    network     TEXT PRIMARY KEY,
    block       BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);

-- The last USD price latchd read for each network's native coin, for the
-- report (latchd sponsor report runs without the networks).
CREATE TABLE sponsor_prices (
    network  TEXT PRIMARY KEY,
    usd      TEXT NOT NULL,
    at       BIGINT NOT NULL
);
