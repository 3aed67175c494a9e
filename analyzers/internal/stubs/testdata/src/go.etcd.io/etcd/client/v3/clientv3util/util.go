// Package clientv3util stubs go.etcd.io/etcd/client/v3/clientv3util v3.6.10.
package clientv3util

import clientv3 "go.etcd.io/etcd/client/v3"

func KeyExists(key string) (_ clientv3.Cmp)  { return }
func KeyMissing(key string) (_ clientv3.Cmp) { return }
