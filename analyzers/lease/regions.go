package lease

// findLeases fills Model.Leases.
func (b *builder) findLeases() {}

// markHeld sets Write.Held for every write made while a lease is held.
func (b *builder) markHeld() {}
