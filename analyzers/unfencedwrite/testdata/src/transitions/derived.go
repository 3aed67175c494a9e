package transitions

import "context"

// MarkActive flips the workers whose addresses sent shares back to active
// (magicpool's notify job): one set-based UPDATE over a join that carries
// nothing of the holder's, so a stale holder's copy does what the next
// holder's would, on the rows as they are when it runs.
func (w *Worker) MarkActive(ctx context.Context) error {
	if err := w.lock(ctx, 4); err != nil {
		return err
	}
	_, err := w.db.ExecContext(ctx, `UPDATE workers
		JOIN ip_addresses ON workers.id = ip_addresses.worker_id
		SET workers.active = TRUE, workers.notified = FALSE
		WHERE ip_addresses.active = TRUE AND workers.active = FALSE`)
	return err
}

// MarkActiveStale is MarkActive's near misses: a value of the holder's, a
// filter on the target's own state (every row in it, also the ones that
// entered it after the holder looked), a relative SET and an INSERT ...
// SELECT (a stale holder adds or copies again what the next one did).
func (w *Worker) MarkActiveStale(ctx context.Context, active bool, miner int) error {
	if err := w.lock(ctx, 4); err != nil {
		return err
	}
	if _, err := w.db.ExecContext(ctx, "UPDATE workers JOIN ip_addresses ON workers.id = ip_addresses.worker_id SET workers.active = ? WHERE ip_addresses.active = TRUE", active); err != nil { // want `ExecContext \(UPDATE workers\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := w.db.ExecContext(ctx, "UPDATE workers JOIN ip_addresses ON workers.id = ip_addresses.worker_id SET workers.active = TRUE WHERE ip_addresses.miner_id = ?", miner); err != nil { // want `ExecContext \(UPDATE workers\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := w.db.ExecContext(ctx, "UPDATE jobs JOIN batches ON jobs.batch_id = batches.id SET jobs.state = 'queued' WHERE jobs.state = 'running'"); err != nil { // want `ExecContext \(UPDATE jobs\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := w.db.ExecContext(ctx, "UPDATE balances JOIN credits ON balances.id = credits.balance_id SET balances.value = balances.value + credits.value WHERE credits.applied = FALSE"); err != nil { // want `ExecContext \(UPDATE balances\) writes to SQL database without a fencing token`
		return err
	}
	if _, err := w.db.ExecContext(ctx, "UPDATE workers SET active = TRUE WHERE active = FALSE"); err != nil { // want `ExecContext \(UPDATE workers\) writes to SQL database without a fencing token`
		return err
	}
	_, err := w.db.ExecContext(ctx, "INSERT INTO balances (id, value) SELECT balance_id, value FROM credits WHERE applied = FALSE") // want `ExecContext \(INSERT balances\) writes to SQL database without a fencing token`
	return err
}
