// The reference app (test/smoke/reference-app.ts) written in Go against the
// cdk8s-kruise module. Usage: go run . <output.yaml>
package main

import (
	"fmt"
	"os"

	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-kruise/cdk8s-kruise-go/cdk8skruise"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
	"github.com/cdk8s-team/cdk8s-plus-go/cdk8splus28/v2"
)

func buildReferenceApp(app cdk8s.App) cdk8s.App {
	chart := cdk8s.NewChart(app, jsii.String("smoke"), nil)

	cdk8skruise.NewKruiseControlPlane(chart, jsii.String("kruise"), nil)

	web := cdk8skruise.NewCloneSet(chart, jsii.String("web"), &cdk8skruise.CloneSetProps{
		Metadata:    &cdk8s.ApiObjectMetadata{Name: jsii.String("web")},
		PodMetadata: &cdk8s.ApiObjectMetadata{Labels: &map[string]*string{"app": jsii.String("web")}},
		Replicas:    jsii.Number(4),
		Containers: &[]*cdk8splus28.ContainerProps{{
			Name:       jsii.String("web"),
			Image:      jsii.String("nginxinc/nginx-unprivileged:1.27"),
			PortNumber: jsii.Number(8080),
			Resources: &cdk8splus28.ContainerResources{
				Cpu: &cdk8splus28.CpuResources{
					Request: cdk8splus28.Cpu_Millis(jsii.Number(100)),
					Limit:   cdk8splus28.Cpu_Millis(jsii.Number(500)),
				},
				Memory: &cdk8splus28.MemoryResources{
					Request: cdk8s.Size_Mebibytes(jsii.Number(128)),
					Limit:   cdk8s.Size_Mebibytes(jsii.Number(256)),
				},
			},
			SecurityContext: &cdk8splus28.ContainerSecurityContextProps{ReadOnlyRootFilesystem: jsii.Bool(false)},
		}},
		UpdateStrategy: cdk8skruise.CloneSetUpdateStrategy_InPlaceIfPossible(&cdk8skruise.CloneSetInPlaceUpdateStrategyOptions{
			Partition:      cdk8splus28.PercentOrAbsolute_Percent(jsii.Number(50)),
			MaxUnavailable: cdk8splus28.PercentOrAbsolute_Absolute(jsii.Number(1)),
			GracePeriod:    cdk8s.Duration_Seconds(jsii.Number(10)),
		}),
	})

	cdk8skruise.NewSidecarSet(chart, jsii.String("log-agent"), &cdk8skruise.SidecarSetProps{
		Metadata: &cdk8s.ApiObjectMetadata{Name: jsii.String("log-agent")},
		Selector: cdk8splus28.LabelSelector_Of(&cdk8splus28.LabelSelectorOptions{
			Labels: &map[string]*string{"app": jsii.String("web")},
		}),
		Containers: &[]*cdk8skruise.SidecarContainerProps{{
			Name:         jsii.String("log-agent"),
			Image:        jsii.String("fluent/fluent-bit:3.1"),
			InjectPolicy: cdk8skruise.SidecarInjectPolicy_AFTER_APP_CONTAINER,
		}},
		UpdateStrategy: cdk8skruise.SidecarSetUpdateStrategy_RollingUpdate(&cdk8skruise.SidecarSetRollingUpdateOptions{
			MaxUnavailable: cdk8splus28.PercentOrAbsolute_Absolute(jsii.Number(1)),
		}),
	})

	cdk8skruise.NewPodUnavailableBudget(chart, jsii.String("web-budget"), &cdk8skruise.PodUnavailableBudgetProps{
		Metadata:       &cdk8s.ApiObjectMetadata{Name: jsii.String("web-budget")},
		Target:         web,
		MaxUnavailable: cdk8splus28.PercentOrAbsolute_Percent(jsii.Number(25)),
	})

	return app
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run . <output.yaml>")
		os.Exit(2)
	}
	yaml := *buildReferenceApp(cdk8s.NewApp(nil)).SynthYaml()
	jsii.Close()
	if err := os.WriteFile(os.Args[1], []byte(yaml), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
