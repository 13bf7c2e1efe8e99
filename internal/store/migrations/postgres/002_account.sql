-- Account data: what the indexer records per EVM chain (internal/indexer).
-- Addresses and hashes are raw bytes (20 and 32), amounts decimal text (they
-- exceed 64 bits). Every table is keyed by chain id and block position, so a
-- reorg deletes from a block on with one range per table.

-- Where each chain's indexer is: the first block not yet indexed.
CREATE TABLE indexer_chains (
    chain_id    BIGINT PRIMARY KEY,
    next_block  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);

-- Hashes of the recently indexed blocks (a window kept for reorg detection).
CREATE TABLE indexer_blocks (
    chain_id     BIGINT NOT NULL,
    number       BIGINT NOT NULL,
    hash         BYTEA NOT NULL,
    parent_hash  BYTEA NOT NULL,
    PRIMARY KEY (chain_id, number)
);

-- Every transaction of the indexed blocks (recipient: the called address or
-- the created contract).
CREATE TABLE chain_txs (
    chain_id      BIGINT NOT NULL,
    block_number  BIGINT NOT NULL,
    tx_index      INTEGER NOT NULL,
    hash          BYTEA NOT NULL,
    block_time    BIGINT NOT NULL,
    sender        BYTEA NOT NULL,
    recipient     BYTEA,
    nonce         BIGINT NOT NULL,
    value         TEXT NOT NULL,
    failed        BOOLEAN NOT NULL,
    PRIMARY KEY (chain_id, block_number, tx_index)
);

-- Native transfers, token transfers (ERC-20, ERC-721) and approvals, in
-- transaction order. price is USD per whole unit when indexed live.
CREATE TABLE chain_movements (
    chain_id      BIGINT NOT NULL,
    block_number  BIGINT NOT NULL,
    tx_index      INTEGER NOT NULL,
    seq           INTEGER NOT NULL,
    kind          INTEGER NOT NULL,
    token         BYTEA,
    sender        BYTEA NOT NULL,
    recipient     BYTEA NOT NULL,
    amount        TEXT NOT NULL,
    price         DOUBLE PRECISION,
    PRIMARY KEY (chain_id, block_number, tx_index, seq)
);

-- The history index: one row per address and transaction involving it, with
-- the operation from that address's side. History pages are keyset scans of
-- this primary key, newest first.
CREATE TABLE account_activity (
    chain_id      BIGINT NOT NULL,
    address       BYTEA NOT NULL,
    block_number  BIGINT NOT NULL,
    tx_index      INTEGER NOT NULL,
    operation     TEXT NOT NULL,
    PRIMARY KEY (chain_id, address, block_number, tx_index) INCLUDE (operation)
);
-- Reorg rollback deletes by block.
CREATE INDEX account_activity_block ON account_activity (chain_id, block_number);

-- Tokens each address has received, so balances include unlisted tokens.
CREATE TABLE account_tokens (
    chain_id  BIGINT NOT NULL,
    address   BYTEA NOT NULL,
    token     BYTEA NOT NULL,
    PRIMARY KEY (chain_id, address, token)
);

-- Metadata read from token contracts that are not on latchd's list.
CREATE TABLE chain_tokens (
    chain_id  BIGINT NOT NULL,
    address   BYTEA NOT NULL,
    standard  INTEGER NOT NULL,
    name      TEXT NOT NULL,
    symbol    TEXT NOT NULL,
    decimals  INTEGER NOT NULL,
    PRIMARY KEY (chain_id, address)
);
