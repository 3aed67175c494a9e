package lease

// findRenewals fills Model.Renewals.
func (b *builder) findRenewals() {}

// findSignals fills Model.Signals.
func (b *builder) findSignals() {}

// findGoroutines fills Model.Goroutines.
func (b *builder) findGoroutines() {}
