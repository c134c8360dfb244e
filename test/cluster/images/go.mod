// The cluster tier's real-node images: the test workload (server), the pod
// sandbox (pause), and imagetool, which packs them and the released
// kruise-manager, kruise-daemon and kruise-rollout-manager binaries into OCI
// images and serves them as a registry on 127.0.0.1 (go-containerregistry).
// test/cluster/build-images.sh builds them. Nothing here is part of the library.
module cdk8s-kruise/test/cluster/images

go 1.26.0

require github.com/google/go-containerregistry v0.22.1

require (
	github.com/klauspost/compress v1.19.2 // indirect
	github.com/opencontainers/go-digest v1.0.0 // indirect
	github.com/opencontainers/image-spec v1.1.1 // indirect
	golang.org/x/sync v0.22.0 // indirect
)
