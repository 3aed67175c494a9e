// Package scripts keeps the coupon service's Redis Lua scripts in files
// embedded with //go:embed, as emshop does.
package scripts

import _ "embed"

// LockCoupon checks the coupon's status, then claims its lock with SET NX
// EX and returns 1 on a claim, -3 when another order holds it.
//
//go:embed lock_coupon.lua
var LockCoupon string

// ReserveStock is an atomic check-and-decrement: no lock.
//
//go:embed reserve_stock.lua
var ReserveStock string

// Success is LockCoupon's code for a claimed lock.
const Success = 1
