-- Logins bound to the browser and device that start them (issue 40).

-- The pages a social login in redirect mode may come back to (JSON list of
-- URLs; none: the page that starts the login).
ALTER TABLE projects ADD COLUMN return_urls TEXT NOT NULL DEFAULT '[]';

-- A pending code or approval link belongs to its device: a start from
-- another device for the same address makes a row of its own instead of
-- replacing (and so ending) this one.
ALTER TABLE auth_challenges DROP CONSTRAINT auth_challenges_pkey;
ALTER TABLE auth_challenges ADD PRIMARY KEY (project_id, email, kind, device_id);

-- A social login is bound to the browser that began it: binding_hash is the
-- SHA-256 of the HttpOnly cookie set on the frame origin when the page began
-- the login (began_at); the callback hands a result only to that browser.
ALTER TABLE social_flows ADD COLUMN began_at BIGINT;
ALTER TABLE social_flows ADD COLUMN binding_hash BYTEA;
