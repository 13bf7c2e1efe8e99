-- Social login for the embedded wallet (internal/social, internal/auth
-- social.go). Times are Unix milliseconds. The flow's state is stored only as
-- its SHA-256; the PKCE verifier never reaches latchd before the exchange.

-- A provider account (provider, subject) of one project's user. A user found
-- by a provider-verified e-mail is the e-mail account's user (same wallet).
CREATE TABLE auth_identities (
    project_id      TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    provider        TEXT NOT NULL,
    subject         TEXT NOT NULL,
    user_id         TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
    email           TEXT NOT NULL DEFAULT '',
    email_verified  INTEGER NOT NULL DEFAULT 0,
    username        TEXT NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL,
    last_login_at   INTEGER NOT NULL,
    PRIMARY KEY (project_id, provider, subject)
);
CREATE INDEX auth_identities_user ON auth_identities (user_id);

-- One social login in progress: started by the frame of device_id for the
-- page on parent_origin, with the PKCE challenge and the OIDC nonce sent to
-- the provider. returned_at: the provider's callback came back; consumed_at:
-- the frame exchanged it (once).
CREATE TABLE social_flows (
    state_hash      BLOB PRIMARY KEY,
    project_id      TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    provider        TEXT NOT NULL,
    device_id       TEXT NOT NULL,
    code_challenge  TEXT NOT NULL,
    nonce           TEXT NOT NULL,
    parent_origin   TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL,
    returned_at     INTEGER,
    consumed_at     INTEGER
);
CREATE INDEX social_flows_expires ON social_flows (expires_at);
