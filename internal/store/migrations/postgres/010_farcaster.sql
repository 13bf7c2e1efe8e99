-- Sign In With Farcaster for the embedded wallet (internal/farcaster). Times
-- are Unix milliseconds. A channel's token is stored only as its SHA-256; the
-- frame's PKCE verifier never reaches latchd before the connect.

-- One Farcaster sign-in in progress: a channel opened by the frame of
-- device_id for the page on parent_origin. The Farcaster client posts the
-- signed message to it (completed_at, with the verified fid, its username,
-- the message and its signature); the frame then spends it once
-- (consumed_at) for a session.
CREATE TABLE farcaster_channels (
    token_hash      BYTEA PRIMARY KEY,
    project_id      TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    device_id       TEXT NOT NULL,
    code_challenge  TEXT NOT NULL,
    nonce           TEXT NOT NULL,
    domain          TEXT NOT NULL,
    siwe_uri        TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL,
    completed_at    BIGINT,
    fid             BIGINT,
    username        TEXT NOT NULL DEFAULT '',
    message         TEXT NOT NULL DEFAULT '',
    signature       TEXT NOT NULL DEFAULT '',
    consumed_at     BIGINT
);
CREATE INDEX farcaster_channels_expires ON farcaster_channels (expires_at);
