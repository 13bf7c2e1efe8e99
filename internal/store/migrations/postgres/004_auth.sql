-- E-mail login for the embedded wallet (internal/auth). Times are Unix
-- milliseconds. Codes, link tokens and session tokens are stored only as
-- HMACs or SHA-256 hashes; key shares only as AES-256-GCM ciphertext.

-- A visitor of one project, known by e-mail.
CREATE TABLE auth_users (
    id          TEXT PRIMARY KEY,
    project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    email       TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    UNIQUE (project_id, email)
);

-- Devices (browser profiles of the frame) the user approved by mail.
CREATE TABLE auth_devices (
    user_id      TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
    device_id    TEXT NOT NULL,
    approved_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, device_id)
);

-- The live code or approval link of one e-mail and purpose: a new one
-- replaces the row, which ends the old one. secret is the code's HMAC or the
-- link token's SHA-256.
CREATE TABLE auth_challenges (
    project_id   TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    email        TEXT NOT NULL,
    kind         TEXT NOT NULL,
    id           TEXT NOT NULL UNIQUE,
    secret       BYTEA NOT NULL,
    device_id    TEXT NOT NULL DEFAULT '',
    session_id   TEXT NOT NULL DEFAULT '',
    new_email    TEXT NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    consumed_at  BIGINT,
    approved_at  BIGINT,
    PRIMARY KEY (project_id, email, kind)
);
CREATE INDEX auth_challenges_secret ON auth_challenges (secret);

-- A login session (one refresh-token family). access_hash is the current
-- access token's SHA-256; verified_at is when its e-mail code was verified.
CREATE TABLE auth_sessions (
    id                 TEXT PRIMARY KEY,
    user_id            TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
    project_id         TEXT NOT NULL,
    device_id          TEXT NOT NULL,
    user_agent         TEXT NOT NULL DEFAULT '',
    created_at         BIGINT NOT NULL,
    verified_at        BIGINT NOT NULL,
    last_used_at       BIGINT NOT NULL,
    revoked_at         BIGINT,
    access_hash        BYTEA NOT NULL UNIQUE,
    access_expires_at  BIGINT NOT NULL
);
CREATE INDEX auth_sessions_user ON auth_sessions (user_id);

-- Every refresh token a session was given; a spent one (used_at set)
-- presented again revokes its session.
CREATE TABLE auth_refresh_tokens (
    hash        BYTEA PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES auth_sessions(id) ON DELETE CASCADE,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL,
    used_at     BIGINT
);
CREATE INDEX auth_refresh_tokens_session ON auth_refresh_tokens (session_id);

-- The user's key shares, encrypted: auth_share under the key-encryption key
-- key_id; recovery_share under the operator's recovery key (mode operator) or,
-- already encrypted by the frame from the user's password, once more under
-- the key-encryption key (mode password; recovery_kdf holds its parameters).
CREATE TABLE auth_shares (
    user_id          TEXT PRIMARY KEY REFERENCES auth_users(id) ON DELETE CASCADE,
    key_id           TEXT NOT NULL,
    auth_share       BYTEA NOT NULL,
    recovery_mode    TEXT NOT NULL,
    recovery_key_id  TEXT NOT NULL,
    recovery_share   BYTEA NOT NULL,
    recovery_kdf     TEXT NOT NULL DEFAULT '',
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);
