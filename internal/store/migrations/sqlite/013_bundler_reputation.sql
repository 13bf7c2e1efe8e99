-- ERC-7562 reputation of the bundler's entities (internal/bundler,
-- reputation.go): per network and address (sender, factory or paymaster),
-- the operations seen and included, decayed to 23/24 at every hour
-- boundary up to decayed_hour (Unix hours).
CREATE TABLE bundler_reputation (
    network       TEXT NOT NULL,
    address       TEXT NOT NULL,
    ops_seen      BIGINT NOT NULL,
    ops_included  BIGINT NOT NULL,
    decayed_hour  BIGINT NOT NULL,
    PRIMARY KEY (network, address)
);

-- An operation's factory and paymaster ('' for none), so the mempool can
-- count a throttled entity's operations; the block that was the head when
-- it was accepted (a throttled entity's stay only that long plus 10); what
-- its validation returned (the account's and paymaster's validationData,
-- decimal, comma-separated; '' before this migration), whose validity
-- window is checked again before bundling; and whether its traced
-- validation read no state that can change before its bundle (1), so the
-- bundle needs no trace to validate it again.
ALTER TABLE bundler_user_operations ADD COLUMN factory TEXT NOT NULL DEFAULT '';
ALTER TABLE bundler_user_operations ADD COLUMN paymaster TEXT NOT NULL DEFAULT '';
ALTER TABLE bundler_user_operations ADD COLUMN seen_block BIGINT NOT NULL DEFAULT 0;
ALTER TABLE bundler_user_operations ADD COLUMN validation TEXT NOT NULL DEFAULT '';
ALTER TABLE bundler_user_operations ADD COLUMN static_validation INTEGER NOT NULL DEFAULT 0;
CREATE INDEX bundler_user_operations_live_factory ON bundler_user_operations (network, factory) WHERE status IN ('pending', 'submitted');
CREATE INDEX bundler_user_operations_live_paymaster ON bundler_user_operations (network, paymaster) WHERE status IN ('pending', 'submitted');
