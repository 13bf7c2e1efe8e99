CREATE TABLE projects (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    origins     TEXT NOT NULL DEFAULT '[]',
    features    TEXT NOT NULL DEFAULT '{}',
    analytics   BOOLEAN NOT NULL DEFAULT TRUE,
    dev         BOOLEAN NOT NULL DEFAULT FALSE,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);

CREATE TABLE wallets (
    id          TEXT PRIMARY KEY,
    slug        TEXT NOT NULL UNIQUE,
    position    INTEGER NOT NULL,
    data        TEXT NOT NULL,
    updated_at  BIGINT NOT NULL
);

CREATE TABLE images (
    kind          TEXT NOT NULL,
    id            TEXT NOT NULL,
    content_type  TEXT NOT NULL,
    data          BYTEA NOT NULL,
    updated_at    BIGINT NOT NULL,
    PRIMARY KEY (kind, id)
);

CREATE TABLE events (
    project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    event_id    TEXT NOT NULL,
    type        TEXT NOT NULL,
    event       TEXT NOT NULL,
    day         TEXT NOT NULL,
    occurred_at BIGINT NOT NULL,
    received_at BIGINT NOT NULL,
    url         TEXT NOT NULL DEFAULT '',
    domain      TEXT NOT NULL DEFAULT '',
    props       TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (project_id, event_id)
);
CREATE INDEX events_project_day ON events (project_id, day, event);
