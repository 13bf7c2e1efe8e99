-- Logins bound to the browser and device that start them (issue 40).

-- The pages a social login in redirect mode may come back to (JSON list of
-- URLs; none: the page that starts the login).
ALTER TABLE projects ADD COLUMN return_urls TEXT NOT NULL DEFAULT '[]';

-- A pending code or approval link belongs to its device: a start from
-- another device for the same address makes a row of its own instead of
-- replacing (and so ending) this one. SQLite cannot change a primary key in
-- place: the table is rebuilt with its rows.
CREATE TABLE auth_challenges_by_device (
    project_id   TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    email        TEXT NOT NULL,
    kind         TEXT NOT NULL,
    id           TEXT NOT NULL UNIQUE,
    secret       BLOB NOT NULL,
    device_id    TEXT NOT NULL DEFAULT '',
    session_id   TEXT NOT NULL DEFAULT '',
    new_email    TEXT NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    consumed_at  INTEGER,
    approved_at  INTEGER,
    PRIMARY KEY (project_id, email, kind, device_id)
);
INSERT INTO auth_challenges_by_device (project_id, email, kind, id, secret, device_id, session_id, new_email, created_at, expires_at, attempts, consumed_at, approved_at)
    SELECT project_id, email, kind, id, secret, device_id, session_id, new_email, created_at, expires_at, attempts, consumed_at, approved_at FROM auth_challenges;
DROP TABLE auth_challenges;
ALTER TABLE auth_challenges_by_device RENAME TO auth_challenges;
CREATE INDEX auth_challenges_secret ON auth_challenges (secret);

-- A social login is bound to the browser that began it: binding_hash is the
-- SHA-256 of the HttpOnly cookie set on the frame origin when the page began
-- the login (began_at); the callback hands a result only to that browser.
ALTER TABLE social_flows ADD COLUMN began_at INTEGER;
ALTER TABLE social_flows ADD COLUMN binding_hash BLOB;
