-- A second factor (TOTP, passkeys), passkey login and passkey recovery,
-- and the key-export gate (issue 40). Times are Unix milliseconds.

-- When this session last proved a second factor (a TOTP code or a passkey
-- assertion), and when it last made a passkey assertion (a passkey login or
-- a step-up): the gates of export, e-mail change, recovery and factor
-- changes look at them. code_at is when it was opened by an e-mail code.
ALTER TABLE auth_sessions ADD COLUMN factor_at BIGINT;
ALTER TABLE auth_sessions ADD COLUMN passkey_at BIGINT;
ALTER TABLE auth_sessions ADD COLUMN code_at BIGINT;

-- When this device passed the user's second factor: once the user has one,
-- a device that has not is a new device and its login waits for it.
ALTER TABLE auth_devices ADD COLUMN factor_at BIGINT;

-- The user's TOTP authenticator (RFC 6238). secret is the base32 secret
-- sealed with AES-256-GCM under the key-encryption key key_id; it counts
-- once confirmed_at is set (a first valid code). last_step is the time step
-- of the last code accepted: a code of that step or an earlier one is a
-- replay.
CREATE TABLE auth_totp (
    user_id       TEXT PRIMARY KEY REFERENCES auth_users(id) ON DELETE CASCADE,
    key_id        TEXT NOT NULL,
    secret        BYTEA NOT NULL,
    created_at    BIGINT NOT NULL,
    confirmed_at  BIGINT,
    last_step     BIGINT NOT NULL DEFAULT 0
);

-- The user's passkeys (WebAuthn discoverable credentials). credential_id is
-- the authenticator's raw id; sign_count the last signature counter seen;
-- clone_warning set once the counter went back (the passkey then refuses).
CREATE TABLE auth_passkeys (
    credential_id     BYTEA PRIMARY KEY,
    user_id           TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
    id                TEXT NOT NULL UNIQUE,
    name              TEXT NOT NULL DEFAULT '',
    public_key        BYTEA NOT NULL,
    attestation_type  TEXT NOT NULL DEFAULT '',
    aaguid            BYTEA,
    sign_count        BIGINT NOT NULL DEFAULT 0,
    clone_warning     INTEGER NOT NULL DEFAULT 0,
    transports        TEXT NOT NULL DEFAULT '',
    flags             INTEGER NOT NULL DEFAULT 0,
    created_at        BIGINT NOT NULL,
    last_used_at      BIGINT
);
CREATE INDEX auth_passkeys_user ON auth_passkeys (user_id);

-- A WebAuthn ceremony in progress: its challenge and options (the library's
-- session data, JSON), bound to the device that began it and, for a
-- registration or a step-up, to the session. Spent once.
CREATE TABLE auth_webauthn_challenges (
    id           TEXT PRIMARY KEY,
    project_id   TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    kind         TEXT NOT NULL,
    user_id      TEXT NOT NULL DEFAULT '',
    session_id   TEXT NOT NULL DEFAULT '',
    device_id    TEXT NOT NULL,
    data         TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    consumed_at  BIGINT
);

-- A login that waits for the second factor (an e-mail login on a new device
-- or a social login into an account with one): the ticket's SHA-256, the
-- device it is for, and the tries its codes took.
CREATE TABLE auth_factor_tickets (
    hash         BYTEA PRIMARY KEY,
    project_id   TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id      TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
    device_id    TEXT NOT NULL,
    user_agent   TEXT NOT NULL DEFAULT '',
    via          TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    consumed_at  BIGINT
);
