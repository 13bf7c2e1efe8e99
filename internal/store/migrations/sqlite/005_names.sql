-- Account names (internal/names): one zone per deployment, e.g.
-- alice.latch.test. Times are Unix seconds.

-- A registered name: its label in its zone, the address it was registered
-- for, and the ENSIP-11 coin type the registration named. An address holds
-- at most one name per zone.
CREATE TABLE names (
    zone           TEXT NOT NULL,
    label          TEXT NOT NULL,
    address        TEXT NOT NULL,
    coin_type      INTEGER NOT NULL,
    attributes     TEXT NOT NULL,
    registered_at  INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    PRIMARY KEY (zone, label),
    UNIQUE (zone, address)
);

-- Register messages already accepted, by the SHA-256 of address and message
-- (not of the signature, which may have other valid encodings), so a captured request cannot be sent again while its
-- timestamp is still fresh. Rows older than the timestamp window are pruned.
CREATE TABLE name_messages (
    digest   BLOB PRIMARY KEY,
    used_at  INTEGER NOT NULL
);
CREATE INDEX name_messages_used_at ON name_messages (used_at);
