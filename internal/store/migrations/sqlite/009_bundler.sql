-- ERC-4337 bundler (internal/bundler): the user-operation mempool, which
-- survives a restart, the paymaster's sponsorship records and its
-- per-project policies. Times are Unix milliseconds; addresses and hashes
-- are lowercase 0x-hex; nonces and fees are decimal strings (256 bits).
CREATE TABLE bundler_user_operations (
    hash          TEXT PRIMARY KEY,   -- userOpHash
    network       TEXT NOT NULL,      -- CAIP-2
    entry_point   TEXT NOT NULL,
    project_id    TEXT NOT NULL,      -- the project it was sent for; not a reference: receipts outlive projects
    sender        TEXT NOT NULL,
    nonce         TEXT NOT NULL,
    op            TEXT NOT NULL,      -- ERC-7769 JSON, as accepted
    status        TEXT NOT NULL,      -- pending, submitted, included, failed, replaced
    reason        TEXT NOT NULL DEFAULT '',
    tx_hash       TEXT NOT NULL DEFAULT '',
    block_hash    TEXT NOT NULL DEFAULT '',
    block_number  BIGINT NOT NULL DEFAULT 0,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);
CREATE INDEX bundler_user_operations_status ON bundler_user_operations (network, status, created_at);
-- One live (pending or submitted) operation per sender and nonce: a second
-- one must replace it (eth_sendUserOperation's fee rule) or is refused.
CREATE UNIQUE INDEX bundler_user_operations_live ON bundler_user_operations (network, sender, nonce) WHERE status IN ('pending', 'submitted');

CREATE TABLE bundler_sponsorships (
    id          TEXT PRIMARY KEY,      -- the paymaster approval's hash
    project_id  TEXT NOT NULL,
    network     TEXT NOT NULL,
    sender      TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX bundler_sponsorships_project ON bundler_sponsorships (project_id, created_at);
CREATE INDEX bundler_sponsorships_sender ON bundler_sponsorships (project_id, sender, created_at);

CREATE TABLE bundler_sponsor_policies (
    project_id         TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    enabled            INTEGER NOT NULL,
    account_daily_cap  INTEGER NOT NULL,  -- sponsored operations per account per UTC day; 0: no cap
    daily_cap          INTEGER NOT NULL,  -- sponsored operations per UTC day; 0: no cap
    allowed_contracts  TEXT NOT NULL,     -- comma-separated addresses; empty: any
    updated_at         BIGINT NOT NULL
);
