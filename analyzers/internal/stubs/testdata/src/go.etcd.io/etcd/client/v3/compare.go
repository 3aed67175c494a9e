package clientv3

import pb "go.etcd.io/etcd/api/v3/etcdserverpb"

type CompareTarget int

type CompareResult int

type Cmp struct {
	c *pb.Compare
}

func Compare(cmp Cmp, result string, v any) Cmp { panic("stub") }
func Value(key string) Cmp                      { panic("stub") }
func Version(key string) Cmp                    { panic("stub") }
func CreateRevision(key string) Cmp             { panic("stub") }
func ModRevision(key string) Cmp                { panic("stub") }
func LeaseValue(key string) Cmp                 { panic("stub") }
