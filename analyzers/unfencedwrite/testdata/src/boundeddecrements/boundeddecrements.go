// Package boundeddecrements sells stock under a per-goods redsync lock
// (emshop's inventory service): a decrement the store bounds (stocks =
// stocks - n WHERE stocks >= n) is quiet when the holder decides to make
// it only from what it was asked and that bound; a stale holder then takes
// only what it was asked to take, and never below zero.
package boundeddecrements

import (
	"errors"
	"fmt"

	"github.com/go-redsync/redsync/v4"
	"gorm.io/gorm"
)

var errShort = errors.New("not enough stock")

type Inventory struct {
	Goods  int64
	Stocks int32
	Frozen bool
}

type Order struct {
	Sn     string
	Qty    int32
	Status int32
}

type Item struct {
	Goods int64
	Num   int32
}

type store struct{ db *gorm.DB }

func (s *store) get(goods int64) (*Inventory, error) {
	var inv Inventory
	err := s.db.Where("goods = ?", goods).First(&inv).Error
	return &inv, err
}

func (s *store) order(sn string) (*Order, error) {
	var o Order
	err := s.db.Where("sn = ?", sn).First(&o).Error
	return &o, err
}

// reduce takes n only where the row still holds n.
func (s *store) reduce(db *gorm.DB, goods int64, n int) error {
	return db.Model(&Inventory{}).Where("goods = ?", goods).Where("stocks >= ?", n).UpdateColumn("stocks", gorm.Expr("stocks - ?", n)).Error
}

// take takes n whatever the row holds.
func (s *store) take(db *gorm.DB, goods int64, n int) error {
	return db.Model(&Inventory{}).Where("goods = ?", goods).UpdateColumn("stocks", gorm.Expr("stocks - ?", n)).Error // want `DB.UpdateColumn \(UPDATE inventories\) writes to SQL database without a fencing token while the redsync lock taken by Mutex.Lock`
}

// set writes the stock the caller computed.
func (s *store) set(db *gorm.DB, goods int64, stocks int32) error {
	return db.Model(&Inventory{}).Where("goods = ?", goods).UpdateColumn("stocks", stocks).Error // want `DB.UpdateColumn \(UPDATE inventories\) writes to SQL database without a fencing token while the redsync lock taken by Mutex.Lock`
}

// reduceAbove takes n where the row holds more than a floor of the
// caller's, not n.
func (s *store) reduceAbove(db *gorm.DB, goods int64, n, floor int) error {
	return db.Model(&Inventory{}).Where("goods = ?", goods).Where("stocks >= ?", floor).UpdateColumn("stocks", gorm.Expr("stocks - ?", n)).Error // want `DB.UpdateColumn \(UPDATE inventories\) writes to SQL database without a fencing token`
}

type service struct {
	rs *redsync.Redsync
	st *store
	db *gorm.DB
}

// sell is emshop's Sell for one item: read the stock, refuse if short,
// take it. The store repeats the check where it applies the decrement.
func (sv *service) sell(goods int64, n int32) error {
	m := sv.rs.NewMutex(fmt.Sprintf("goods_%d", goods))
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	inv, err := sv.st.get(goods)
	if err != nil {
		return err
	}
	if inv.Stocks < n {
		return errShort
	}
	return sv.st.reduce(sv.db, goods, int(n))
}

// sellAll locks each item in turn, checks its stock and takes it, and
// logs a failed unlock: quiet, like sell.
func (sv *service) sellAll(items []Item) error {
	for _, it := range items {
		m := sv.rs.NewMutex(fmt.Sprintf("goods_%d", it.Goods))
		if err := m.Lock(); err != nil {
			return err
		}
		inv, err := sv.st.get(it.Goods)
		if err != nil {
			m.Unlock()
			return err
		}
		if inv.Stocks < it.Num {
			m.Unlock()
			return errShort
		}
		if err := sv.st.reduce(sv.db, it.Goods, int(it.Num)); err != nil {
			m.Unlock()
			return err
		}
		if ok, err := m.Unlock(); !ok || err != nil {
			fmt.Println("unlock failed", it.Goods, err)
		}
	}
	return nil
}

// sellInline writes the bounded decrement in the locked function itself:
// quiet.
func (sv *service) sellInline(goods int64, n int) error {
	m := sv.rs.NewMutex(fmt.Sprintf("goods_%d", goods))
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	return sv.db.Model(&Inventory{}).Where("goods = ?", goods).Where("stocks >= ?", n).UpdateColumn("stocks", gorm.Expr("stocks - ?", n)).Error
}

// sellFirst reads the row into a local with GORM's First and checks its
// stock and First's error: quiet, like sell.
func (sv *service) sellFirst(goods int64, n int32) error {
	m := sv.rs.NewMutex(fmt.Sprintf("goods_%d", goods))
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	var inv Inventory
	if err := sv.db.Where("goods = ?", goods).First(&inv).Error; err != nil {
		return err
	}
	if inv.Stocks < n {
		return errShort
	}
	return sv.st.reduce(sv.db, goods, int(n))
}

// sellFirstFrozen reads the row the same way and also tests its frozen
// flag: reported.
func (sv *service) sellFirstFrozen(goods int64, n int32) error {
	m := sv.rs.NewMutex(fmt.Sprintf("goods_%d", goods))
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	var inv Inventory
	if err := sv.db.Where("goods = ?", goods).First(&inv).Error; err != nil {
		return err
	}
	if inv.Stocks < n || inv.Frozen {
		return errShort
	}
	return sv.st.reduce(sv.db, goods, int(n)) // want `store.reduce \(.*\) writes to SQL database without a fencing token`
}

// takeUnbounded takes the stock with no bound: a stale holder's take can
// drive it below zero, past the check it made.
func (sv *service) takeUnbounded(goods int64, n int32) error {
	m := sv.rs.NewMutex(fmt.Sprintf("goods_%d", goods))
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	inv, err := sv.st.get(goods)
	if err != nil {
		return err
	}
	if inv.Stocks < n {
		return errShort
	}
	return sv.st.take(sv.db, goods, int(n))
}

// restock reads the stock and writes back what it computed: a stale
// holder overwrites every sale made since its read.
func (sv *service) restock(goods int64, n int32) error {
	m := sv.rs.NewMutex(fmt.Sprintf("goods_%d", goods))
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	inv, err := sv.st.get(goods)
	if err != nil {
		return err
	}
	if inv.Stocks < n {
		return errShort
	}
	return sv.st.set(sv.db, goods, inv.Stocks-n)
}

// fulfil takes an order's stock once, checking under the lock that the
// order is still pending: the bound does not stop a stale holder that read
// "pending" from taking the order's stock a second time.
func (sv *service) fulfil(sn string, goods int64, n int32) error {
	m := sv.rs.NewMutex("order_" + sn)
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	o, err := sv.st.order(sn)
	if err != nil {
		return err
	}
	if o.Status != 1 {
		return nil
	}
	return sv.st.reduce(sv.db, goods, int(n)) // want `store.reduce \(.*\) writes to SQL database without a fencing token while the redsync lock taken by Mutex.Lock`
}

// sellFrozen checks another field of the row it read: a stale holder acts
// on a frozen flag the next holder may have set.
func (sv *service) sellFrozen(goods int64, n int32) error {
	m := sv.rs.NewMutex(fmt.Sprintf("goods_%d", goods))
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	inv, err := sv.st.get(goods)
	if err != nil {
		return err
	}
	if inv.Frozen || inv.Stocks < n {
		return errShort
	}
	return sv.st.reduce(sv.db, goods, int(n)) // want `store.reduce \(.*\) writes to SQL database without a fencing token`
}

// sellOrderQty takes the quantity an order read under the lock says: the
// amount comes from the store, not from the caller.
func (sv *service) sellOrderQty(sn string, goods int64) error {
	m := sv.rs.NewMutex(fmt.Sprintf("goods_%d", goods))
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	o, err := sv.st.order(sn)
	if err != nil {
		return err
	}
	return sv.st.reduce(sv.db, goods, int(o.Qty)) // want `store.reduce \(.*\) writes to SQL database without a fencing token`
}

// sellAboveFloor bounds the decrement by another value than the amount:
// no bound the check made.
func (sv *service) sellAboveFloor(goods int64, n int32) error {
	m := sv.rs.NewMutex(fmt.Sprintf("goods_%d", goods))
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	return sv.st.reduceAbove(sv.db, goods, int(n), 0)
}
