// Command kube-apiserver-eks is kube-apiserver (the command of
// k8s.io/kubernetes/cmd/kube-apiserver/app, unchanged) answering /version as
// an EKS control plane does: with the major and minor its build stamps in
// (build.sh links it with EKS's shape: minor "37+", gitVersion
// v1.37.2-eks-<7 hex>), not the numbers of its binary version.
//
// Since Kubernetes 1.31, /version reports the kube component's effective
// version (k8s.io/apiserver's server config), whose Info() sets major and
// minor to the binary version's numbers, so no "+" reaches a client whatever
// the stamp; 1.30 and older served the stamps. EKS answers "NN+" (minor "22+"
// beside gitVersion v1.22.9-eks-a64ea69 in aws/eks-distro#1128), and that is
// what clients such as kruise-manager read (openkruise/kruise#2404: v1.9.0's
// controllers panic on a minor "19+"). Here the kube component's effective
// version is registered again, the same one, with Info() keeping the stamped
// major and minor; everything else it decides (emulation, compatibility,
// feature gates) is the default's.
package main

import (
	"fmt"
	"os"
	_ "time/tzdata" // as kube-apiserver's own main: CronJob time zones

	apimachineryversion "k8s.io/apimachinery/pkg/version"
	"k8s.io/apiserver/pkg/util/compatibility"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/cli"
	basecompatibility "k8s.io/component-base/compatibility"
	_ "k8s.io/component-base/logs/json/register"          // as kube-apiserver's own main: --logging-format=json
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // as kube-apiserver's own main: client-go metrics
	_ "k8s.io/component-base/metrics/prometheus/version"  // as kube-apiserver's own main: the build info metric
	baseversion "k8s.io/component-base/version"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

// stamped is an effective version whose Info() reports the stamped major and minor.
type stamped struct {
	basecompatibility.MutableEffectiveVersion
}

func (s stamped) Info() *apimachineryversion.Info {
	info := s.MutableEffectiveVersion.Info()
	if info == nil {
		return nil
	}
	build := baseversion.Get()
	info.Major, info.Minor = build.Major, build.Minor
	return info
}

func main() {
	registry := compatibility.DefaultComponentGlobalsRegistry
	kube, ok := registry.EffectiveVersionFor(basecompatibility.DefaultKubeComponent).(basecompatibility.MutableEffectiveVersion)
	if !ok {
		fmt.Fprintln(os.Stderr, "kube-apiserver-eks: the kube component has no mutable effective version registered")
		os.Exit(1)
	}
	registry.Reset()
	if err := registry.Register(basecompatibility.DefaultKubeComponent, stamped{kube}, utilfeature.DefaultMutableFeatureGate); err != nil {
		fmt.Fprintf(os.Stderr, "kube-apiserver-eks: registering the kube component's version: %v\n", err)
		os.Exit(1)
	}
	os.Exit(cli.Run(app.NewAPIServerCommand()))
}
