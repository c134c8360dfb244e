// The Go smoke test: a user's Go module that uses the freshly built
// cdk8s-kruise module from dist/go (a replace, as before a release) and
// synthesizes the reference app (test/smoke/reference-app.ts).
//
// cdk8s, cdk8s-plus-28 and constructs are replaced by the modules
// `npx projen package-all` generates next to ours from the same npm packages
// the TypeScript reference uses: the Go module proxy this project can reach
// does not serve those versions.
module github.com/cdk8s-kruise/cdk8s-kruise-smoke-go

go 1.25.0

require (
	github.com/aws/jsii-runtime-go v1.140.0
	github.com/cdk8s-kruise/cdk8s-kruise-go/cdk8skruise v0.0.0
	github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 v2.70.106
	github.com/cdk8s-team/cdk8s-plus-go/cdk8splus28/v2 v2.5.6
)

require (
	github.com/Masterminds/semver/v3 v3.5.0 // indirect
	github.com/aws/constructs-go/constructs/v10 v10.3.0 // indirect
	github.com/fatih/color v1.19.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/yuin/goldmark v1.7.16 // indirect
	golang.org/x/lint v0.0.0-20241112194109-818c5a804067 // indirect
	golang.org/x/mod v0.39.0 // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/telemetry v0.0.0-20260811182544-a038080d80e5 // indirect
	golang.org/x/tools v0.49.0 // indirect
	golang.org/x/tools/cmd/godoc v0.1.0-deprecated // indirect
	golang.org/x/tools/godoc v0.1.0-deprecated // indirect
)

replace (
	github.com/aws/constructs-go/constructs/v10 => ../../dist/go/constructs
	github.com/cdk8s-kruise/cdk8s-kruise-go/cdk8skruise => ../../dist/go/cdk8skruise
	github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 => ../../dist/go/cdk8s
	github.com/cdk8s-team/cdk8s-plus-go/cdk8splus28/v2 => ../../dist/go/cdk8splus28
)
