// Package cluster declares what the services may ask about the cluster.
package cluster

// Membership tells this node's role.
type Membership interface {
	IsPrimary() bool
	Peers() []string
}
