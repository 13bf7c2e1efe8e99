-- On-ramp orders (internal/onramp): one row per checkout a project's
-- visitor started. Amounts are decimal text as quoted; times are Unix
-- milliseconds.
CREATE TABLE onramp_orders (
    id                TEXT PRIMARY KEY,  -- 128 random bits, hex
    project_id        TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    provider          TEXT NOT NULL,     -- dev, coinbase, meld
    provider_ref      TEXT NOT NULL DEFAULT '',
    status            TEXT NOT NULL,     -- pending, processing, completed, failed
    address           TEXT NOT NULL,
    network           TEXT NOT NULL,     -- the provider's network name
    chain_id          TEXT NOT NULL,
    purchase_currency TEXT NOT NULL,
    purchase_amount   TEXT NOT NULL,
    payment_currency  TEXT NOT NULL,
    payment_amount    TEXT NOT NULL,
    payment_method    TEXT NOT NULL,
    tx_hash           TEXT NOT NULL DEFAULT '',
    error             TEXT NOT NULL DEFAULT '',
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL
);
CREATE INDEX onramp_orders_project ON onramp_orders (project_id, created_at);
