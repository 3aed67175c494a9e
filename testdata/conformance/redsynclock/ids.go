package redsynclock

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// nextInvoiceNo draws invoice numbers from a counter that starts at a
// configured first number: a script, so that the first draw and the steps
// after it are one atomic step.
var nextInvoiceNo = redis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if not cur then
	redis.call('SET', KEYS[1], ARGV[1])
	return tonumber(ARGV[1])
end
local n = tonumber(cur) + 1
redis.call('SET', KEYS[1], n)
return n`)

// invoiceNo draws the next invoice number of a year.
func (s *Sender) invoiceNo(ctx context.Context, year int) (string, error) {
	n, err := nextInvoiceNo.Run(ctx, s.rdb, []string{fmt.Sprintf("invoice:no:%d", year)}, year*100000).Int64()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("INV-%d", n), nil
}

// attemptID draws the delivery attempt's number with INCR.
func (s *Sender) attemptID(ctx context.Context, invoice string) (int64, error) {
	return s.rdb.Incr(ctx, "invoice:attempts:"+invoice).Result()
}

// Number gives an invoice its number under the invoice's mutex. The draws
// take the next numbers, late or not; the row update is what the mutex
// guards.
func (s *Sender) Number(ctx context.Context, invoice string, year int) error {
	m := s.rs.NewMutex("invoice:" + invoice)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	no, err := s.invoiceNo(ctx, year)
	if err != nil {
		return err
	}
	attempt, err := s.attemptID(ctx, invoice)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, `UPDATE invoices SET number = $1, attempt = $2 WHERE id = $3`, no, attempt, invoice) // want unfencedwrite:"without a fencing token"
	return err
}

// creditNote adds a credit to the customer's balance and replies the new
// one, which nobody reads: run late, it credits twice.
var creditNote = redis.NewScript(`
local bal = tonumber(redis.call('GET', KEYS[1]) or '0') + tonumber(ARGV[1])
redis.call('SET', KEYS[1], bal)
return bal`)

// Credit credits a refund under the invoice's mutex.
func (s *Sender) Credit(ctx context.Context, invoice, customer string, cents int64) error {
	m := s.rs.NewMutex("invoice:" + invoice)
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return creditNote.Run(ctx, s.rdb, []string{"balance:" + customer}, cents).Err() // want unfencedwrite:"without a fencing token"
}
