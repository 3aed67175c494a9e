package lease

// findWrites fills Model.Writes with every store write of the package.
func (b *builder) findWrites() {}
