CREATE TABLE outbox (
    id BIGSERIAL PRIMARY KEY,
    work_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload JSONB NOT NULL,
    attempts INT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX outbox_work_id_uidx ON outbox (work_id);

CREATE TABLE transactions (
    transaction_id TEXT PRIMARY KEY,
    reference TEXT NOT NULL,
    amount BIGINT NOT NULL
);
CREATE UNIQUE INDEX transactions_reference_uidx ON transactions (reference);

CREATE TABLE notes (
    id BIGSERIAL PRIMARY KEY,
    note_key TEXT,
    body TEXT NOT NULL
);
CREATE UNIQUE INDEX notes_key_uidx ON notes (note_key);
