// Package billing's methods are handed to other packages' lock helpers and
// leader callbacks as method values.
package billing

import (
	"context"
	"database/sql"
)

type Invoicer struct {
	DB *sql.DB
}

// Close closes the day's invoices: it rewrites their totals.
func (i *Invoicer) Close() error {
	_, err := i.DB.Exec("UPDATE invoices SET total = (SELECT sum(amount) FROM items WHERE invoice_id = invoices.id) WHERE closed = false")
	return err
}

// Run closes invoices until ctx ends.
func (i *Invoicer) Run(ctx context.Context) {
	for ctx.Err() == nil {
		if err := i.Close(); err != nil {
			return
		}
	}
}

// Count reads only.
func (i *Invoicer) Count() error {
	return i.DB.QueryRow("SELECT count(*) FROM invoices").Err()
}
