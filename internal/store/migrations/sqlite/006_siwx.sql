-- Sign-in with X sessions (internal/siwx). Times are Unix milliseconds. The
-- session token is stored only as its SHA-256 (hex).
CREATE TABLE siwx_sessions (
    id          TEXT PRIMARY KEY,
    project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    token_hash  TEXT NOT NULL UNIQUE,
    chain_id    TEXT NOT NULL,  -- CAIP-2, e.g. eip155:1
    address     TEXT NOT NULL,  -- as signed (EIP-55 or base58)
    domain      TEXT NOT NULL,
    uri         TEXT NOT NULL,
    nonce       TEXT NOT NULL,
    message     TEXT NOT NULL,  -- exactly as signed
    signature   TEXT NOT NULL,
    kind        TEXT NOT NULL,  -- eip191, eip1271, eip6492, solana:ed25519
    cacao       TEXT NOT NULL,  -- CAIP-74 JSON
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    revoked_at  INTEGER
);
CREATE INDEX siwx_sessions_account ON siwx_sessions (project_id, chain_id, address);
CREATE INDEX siwx_sessions_expires ON siwx_sessions (expires_at);
