// etcd for the test suite's kube-apiserver: etcd's own command line (etcdmain) from
// go.etcd.io/etcd/server/v3, at the release this module pins.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
