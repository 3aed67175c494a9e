-- The row both workers overwrite: an account's balance, recomputed from its
-- ledger by whichever worker holds the lease. fence is the fencing token of
-- the last write that applied; fencegen fences every table that has one.
CREATE TABLE balances (
  id         bigint PRIMARY KEY,
  amount     bigint NOT NULL,
  written_by text   NOT NULL,
  fence      bigint NOT NULL DEFAULT 0
);
