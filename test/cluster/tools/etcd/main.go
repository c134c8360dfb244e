// Command etcd is the etcd server, built from the go.etcd.io/etcd/server/v3
// module pinned in go.mod so the cluster tier needs nothing outside the Go
// module proxy.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
