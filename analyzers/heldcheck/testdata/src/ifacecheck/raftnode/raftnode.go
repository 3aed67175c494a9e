// Package raftnode implements cluster.Membership on hashicorp/raft.
package raftnode

import "github.com/hashicorp/raft"

type Node struct{ r *raft.Raft }

func New(r *raft.Raft) *Node { return &Node{r: r} }

// IsPrimary reports whether this node leads the raft cluster.
func (n *Node) IsPrimary() bool { return n.r.State() == raft.Leader }

func (n *Node) Peers() []string { return nil }

// Static is the single-node membership used in development: always primary.
type Static struct{}

func (Static) IsPrimary() bool { return true }
func (Static) Peers() []string { return nil }
