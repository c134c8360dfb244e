module github.com/cdk8s-kruise/cdk8s-kruise/test/check/yaml-oracle

go 1.25

require sigs.k8s.io/yaml v1.6.0

require go.yaml.in/yaml/v2 v2.4.2 // indirect
