package goctlmodel

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/zeromicro/go-zero/core/stores/sqlx"
)

// NoteModel is written by hand, in goctl's style: its FindOneByDeveloperId
// says nothing of the table's keys.
type NoteModel struct {
	conn  sqlx.SqlConn
	table string
}

// Note is a row of the notes table.
type Note struct {
	DataId      int64  `db:"data_id"`
	DeveloperId int64  `db:"developer_id"`
	Text        string `db:"text"`
}

func (m *NoteModel) FindOneByDeveloperId(ctx context.Context, developerId int64) (*Note, error) {
	var resp Note
	err := m.conn.QueryRowCtx(ctx, &resp, fmt.Sprintf("select data_id, developer_id, text from %s where developer_id = $1 limit 1", m.table), developerId)
	return &resp, err
}

func (m *NoteModel) Insert(ctx context.Context, data *Note) (sql.Result, error) {
	query := fmt.Sprintf("insert into %s (developer_id, text) values ($1, $2)", m.table)
	return m.conn.ExecCtx(ctx, query, data.DeveloperId, data.Text)
}
