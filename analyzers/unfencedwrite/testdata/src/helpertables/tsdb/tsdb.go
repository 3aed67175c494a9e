// Package tsdb is reduced from magicpool's tsdb: each write names its
// table and columns as constants and lets dbcl format the statement.
package tsdb

import (
	"embed"
	"time"

	"helpertables/dbcl"
)

//go:embed migrations/*.sql
var Migrations embed.FS

type Block struct {
	ChainID string    `db:"chain_id"`
	Period  int       `db:"period"`
	EndTime time.Time `db:"end_time"`
	Value   float64   `db:"value"`
	Count   int       `db:"count"`
	Height  uint64    `db:"height"`
}

func objects(blocks []*Block) []interface{} {
	out := make([]interface{}, len(blocks))
	for i, b := range blocks {
		out[i] = b
	}
	return out
}

// InsertBlocks inserts each interval's rollup under its natural key.
func InsertBlocks(q dbcl.Querier, blocks ...*Block) error {
	const table = "blocks"
	cols := []string{"chain_id", "period", "end_time", "value", "count"}
	return dbcl.ExecBulkInsert(q, table, cols, objects(blocks))
}

// InsertPartialBlocks adds to the running rollups of longer periods.
func InsertPartialBlocks(q dbcl.Querier, blocks ...*Block) error {
	const table = "blocks"
	insertCols := []string{"chain_id", "period", "end_time", "value", "count"}
	updateCols := []string{"value", "count"}
	return dbcl.ExecBulkInsertUpdateAdd(q, table, insertCols, updateCols, objects(blocks))
}

// InsertBlock inserts one rollup, leaving the period to its default.
func InsertBlockNoPeriod(q dbcl.Querier, b *Block) error {
	return dbcl.ExecInsert(q, "blocks", []string{"chain_id", "end_time", "value", "count"}, b)
}

// InsertRawBlocks inserts under an AUTO_INCREMENT id: a second row.
func InsertRawBlocks(q dbcl.Querier, blocks ...*Block) error {
	return dbcl.ExecBulkInsert(q, "raw_blocks", []string{"chain_id", "height"}, objects(blocks))
}

// InsertInto takes its table from the caller: not a constant here.
func InsertInto(q dbcl.Querier, table string, b *Block) error {
	return dbcl.ExecInsert(q, table, []string{"chain_id", "period", "end_time", "value", "count"}, b)
}

// InsertBlockCols takes its columns from the caller.
func InsertBlockCols(q dbcl.Querier, cols []string, b *Block) error {
	return dbcl.ExecInsert(q, "blocks", cols, b)
}

// InsertBlockFirst inserts through a helper whose column loop can stop
// early.
func InsertBlockFirst(q dbcl.Querier, b *Block) error {
	return dbcl.ExecInsertFirst(q, "blocks", []string{"chain_id", "period", "end_time", "value", "count"}, b)
}

// InsertBlockAudited inserts through a helper that also writes an audit row.
func InsertBlockAudited(q dbcl.Querier, b *Block) error {
	return dbcl.ExecInsertAudited(q, "blocks", []string{"chain_id", "period", "end_time", "value", "count"}, b)
}

// UpdateBlock sets the value of the rows whereCols select; dbcl builds
// the WHERE clause out of the caller's sight.
func UpdateBlock(q dbcl.Querier, b *Block) error {
	return dbcl.ExecUpdate(q, "blocks", []string{"value"}, []string{"chain_id", "period", "end_time"}, b)
}

// InsertBlockLogged inserts the rollup through a helper that drops the
// INSERT's error.
func InsertBlockLogged(q dbcl.Querier, b *Block) error {
	return dbcl.ExecInsertLogged(q, "blocks", []string{"chain_id", "period", "end_time", "value", "count"}, b)
}
