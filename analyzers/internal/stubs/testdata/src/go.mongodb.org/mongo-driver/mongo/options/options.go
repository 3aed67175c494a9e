// Package options is a stub of go.mongodb.org/mongo-driver/mongo/options
// (v1.12): the options the fixtures pass.
package options

type ClientOptions struct{}

func Client() *ClientOptions { return &ClientOptions{} }

func (c *ClientOptions) ApplyURI(uri string) *ClientOptions { return c }

type DatabaseOptions struct{}

type CollectionOptions struct{}

type InsertOneOptions struct{}

type InsertManyOptions struct{}

type DeleteOptions struct{}

type BulkWriteOptions struct{}

type FindOptions struct{}

type FindOneOptions struct{}

type CountOptions struct{}

type FindOneAndDeleteOptions struct{}

type UpdateOptions struct {
	Upsert *bool
}

func Update() *UpdateOptions { return &UpdateOptions{} }

func (uo *UpdateOptions) SetUpsert(b bool) *UpdateOptions {
	uo.Upsert = &b
	return uo
}

type ReplaceOptions struct {
	Upsert *bool
}

func Replace() *ReplaceOptions { return &ReplaceOptions{} }

func (ro *ReplaceOptions) SetUpsert(b bool) *ReplaceOptions {
	ro.Upsert = &b
	return ro
}

type FindOneAndUpdateOptions struct {
	Upsert *bool
}

func FindOneAndUpdate() *FindOneAndUpdateOptions { return &FindOneAndUpdateOptions{} }

func (f *FindOneAndUpdateOptions) SetUpsert(b bool) *FindOneAndUpdateOptions {
	f.Upsert = &b
	return f
}

type FindOneAndReplaceOptions struct {
	Upsert *bool
}

func FindOneAndReplace() *FindOneAndReplaceOptions { return &FindOneAndReplaceOptions{} }

type IndexOptions struct {
	Unique *bool
	Sparse *bool
}

func Index() *IndexOptions { return &IndexOptions{} }

func (i *IndexOptions) SetUnique(unique bool) *IndexOptions {
	i.Unique = &unique
	return i
}

func (i *IndexOptions) SetSparse(sparse bool) *IndexOptions {
	i.Sparse = &sparse
	return i
}

type CreateIndexesOptions struct{}
