package clientv3

import pb "go.etcd.io/etcd/api/v3/etcdserverpb"

type CompareTarget int

type CompareResult int

type Cmp struct {
	c *pb.Compare
}

func Compare(cmp Cmp, result string, v any) (_ Cmp) { return }
func Value(key string) (_ Cmp)                      { return }
func Version(key string) (_ Cmp)                    { return }
func CreateRevision(key string) (_ Cmp)             { return }
func ModRevision(key string) (_ Cmp)                { return }
func LeaseValue(key string) (_ Cmp)                 { return }
