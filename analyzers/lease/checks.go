package lease

// findChecks fills Model.Checks with the package's lease-validity checks.
func (b *builder) findChecks() {}

// markGuards links each check with the writes control-dependent on it.
func (b *builder) markGuards() {}

// checkedRegions returns the lease regions opened by positive validity
// checks (if le.IsLeader() { ... }) and the blocks each covers.
func (b *builder) checkedRegions() []checkedRegion { return nil }
