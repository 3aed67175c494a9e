package workers

import "context"

// Dao is what every table's DAO does; EventDao is the events table's.
// Each DAO implements Dao, only the events DAO EventDao.
type Dao interface {
	AddModel(ctx context.Context, id string) error
}

type EventDao interface {
	Dao
	Latest(ctx context.Context) (string, error)
}

// A Manager hands out the DAOs.
type Manager interface {
	EventDao() EventDao
}
