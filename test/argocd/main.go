// Command argocd-engine runs cdk8s-kruise's Argo CD configuration with Argo CD's
// own code: the resource actions and health scripts of an argocd-cm in Argo
// CD v3.5's Lua VM (github.com/argoproj/argo-cd/v3/util/lua), and a sync of
// manifests by gitops-engine, the library Argo CD syncs with.
//
//	argocd-engine actions   (stdin: cases; no cluster)
//	  discovery and each asked action run on each object, as the API server's
//	  ListResourceActions and RunResourceActionV2 run them; the result is what
//	  Argo CD would send: the objects to create, and the JSON merge patch of
//	  the changed object split into its status part and the rest.
//	argocd-engine run       (stdin: one action on a live object; KUBECONFIG)
//	  the same, on the object read from the cluster, and the result applied as
//	  RunResourceActionV2 applies it: created objects after a dry run, the
//	  status part of the patch to the status subresource, then the rest.
//	argocd-engine sync      (stdin: manifests and settings; KUBECONFIG)
//	  a sync operation run with gitops-engine's sync package round by round, as
//	  Argo CD's application controller runs one (waves, health by the
//	  argocd-cm's Lua overrides, pruning of tracked objects no longer in the
//	  manifests), then each object's result and which objects Argo CD's
//	  comparison still finds different from the manifests.
//
// argocd-cm's data is read into resource overrides as Argo CD's settings
// manager reads its resource.customizations.<type>.<group_kind> keys.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/argoproj/argo-cd/gitops-engine/pkg/cache"
	"github.com/argoproj/argo-cd/gitops-engine/pkg/diff"
	"github.com/argoproj/argo-cd/gitops-engine/pkg/sync"
	"github.com/argoproj/argo-cd/gitops-engine/pkg/sync/common"
	"github.com/argoproj/argo-cd/gitops-engine/pkg/utils/kube"
	"github.com/argoproj/argo-cd/gitops-engine/pkg/utils/tracing"
	applicationpkg "github.com/argoproj/argo-cd/v3/pkg/apiclient/application"
	appv1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/argoproj/argo-cd/v3/util/argo/normalizers"
	"github.com/argoproj/argo-cd/v3/util/lua"
	jsonpatch "github.com/evanphx/json-patch"
	"github.com/go-logr/logr"
	"github.com/go-logr/stdr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"
)

// overrides reads argocd-cm's resource.customizations.<type>.<group_kind> keys
// as Argo CD's settings manager does (util/settings: appendResourceOverridesFromSplitKeys).
func overrides(data map[string]string) (map[string]appv1.ResourceOverride, error) {
	const prefix = "resource.customizations"
	out := map[string]appv1.ResourceOverride{}
	for k, v := range data {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		parts := strings.SplitN(k, ".", 4)
		if len(parts) < 4 {
			continue
		}
		gk := strings.Split(parts[3], "_")
		key := parts[3]
		switch {
		case len(gk) == 2:
			key = gk[0] + "/" + gk[1]
		case len(gk) == 1 && parts[3] != "":
		default:
			return nil, fmt.Errorf("group kind should be in format `resource.customizations.<type>.<group_kind>` or resource.customizations.<type>.<kind>`, got group kind: '%s'", parts[3])
		}
		if key == "all" {
			key = "*/*"
		}
		o := out[key]
		switch parts[2] {
		case "health":
			o.HealthLua = v
		case "useOpenLibs":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, err
			}
			o.UseOpenLibs = b
		case "actions":
			o.Actions = v
		case "ignoreDifferences":
			if err := yaml.Unmarshal([]byte(v), &o.IgnoreDifferences); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("resource customization type %s not supported", parts[2])
		}
		out[key] = o
	}
	return out, nil
}

type action struct {
	Name        string   `json:"name"`
	DisplayName string   `json:"displayName,omitempty"`
	Disabled    bool     `json:"disabled,omitempty"`
	IconClass   string   `json:"iconClass,omitempty"`
	Params      []string `json:"params,omitempty"`
}

type created struct {
	Operation string                 `json:"operation"`
	Resource  map[string]interface{} `json:"resource"`
}

type outcome struct {
	ID             string          `json:"id,omitempty"`
	Actions        []action        `json:"actions"`
	DiscoveryError string          `json:"discoveryError,omitempty"`
	Create         []created       `json:"create,omitempty"`
	StatusPatch    json.RawMessage `json:"statusPatch,omitempty"`
	Patch          json.RawMessage `json:"patch,omitempty"`
	ActionError    string          `json:"actionError,omitempty"`
	Applied        []string        `json:"applied,omitempty"`
}

// discover lists the actions that apply to obj, as the API server's getAvailableActions does.
func discover(vm lua.VM, obj *unstructured.Unstructured) ([]action, error) {
	scripts, err := vm.GetResourceActionDiscovery(obj)
	if err != nil {
		return nil, err
	}
	out := []action{}
	if len(scripts) == 0 {
		return out, nil
	}
	found, err := vm.ExecuteResourceActionDiscovery(obj, scripts)
	if err != nil {
		return nil, err
	}
	for _, a := range found {
		x := action{Name: a.Name, DisplayName: a.DisplayName, Disabled: a.Disabled, IconClass: a.IconClass}
		for _, p := range a.Params {
			x.Params = append(x.Params, p.Name)
		}
		out = append(out, x)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// splitStatusPatch splits a merge patch into its status part and the rest, as
// the API server's patchResource does (server/application/application.go).
func splitStatusPatch(patch []byte) (nonStatus, status []byte, err error) {
	var obj map[string]interface{}
	if err := json.Unmarshal(patch, &obj); err != nil {
		return nil, nil, err
	}
	st, ok := obj["status"]
	if !ok {
		return patch, nil, nil
	}
	if status, err = json.Marshal(map[string]interface{}{"status": st}); err != nil {
		return nil, nil, err
	}
	delete(obj, "status")
	if len(obj) > 0 {
		if nonStatus, err = json.Marshal(obj); err != nil {
			return nil, nil, err
		}
	}
	return nonStatus, status, nil
}

// runAction runs the named action on obj as RunResourceActionV2 does, and says what Argo CD would send.
func runAction(vm lua.VM, obj *unstructured.Unstructured, name string, params map[string]string, out *outcome) ([]lua.ImpactedResource, []byte) {
	def, err := vm.GetResourceAction(obj, name)
	if err != nil {
		out.ActionError = err.Error()
		return nil, nil
	}
	var ps []*applicationpkg.ResourceActionParameters
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		n, v := k, params[k]
		ps = append(ps, &applicationpkg.ResourceActionParameters{Name: &n, Value: &v})
	}
	impacted, err := vm.ExecuteResourceAction(obj, def.ActionLua, ps)
	if err != nil {
		out.ActionError = err.Error()
		return nil, nil
	}
	liveBytes, err := json.Marshal(obj)
	if err != nil {
		out.ActionError = err.Error()
		return nil, nil
	}
	var diffBytes []byte
	for _, r := range impacted {
		switch r.K8SOperation {
		case lua.CreateOperation:
			out.Create = append(out.Create, created{Operation: "create", Resource: r.UnstructuredObj.Object})
		case lua.PatchOperation:
			newBytes, err := json.Marshal(r.UnstructuredObj)
			if err != nil {
				out.ActionError = err.Error()
				return nil, nil
			}
			diffBytes, err = jsonpatch.CreateMergePatch(liveBytes, newBytes)
			if err != nil {
				out.ActionError = fmt.Sprintf("error calculating merge patch: %v", err)
				return nil, nil
			}
			if string(diffBytes) == "{}" {
				diffBytes = nil
				continue
			}
			nonStatus, status, err := splitStatusPatch(diffBytes)
			if err != nil {
				out.ActionError = err.Error()
				return nil, nil
			}
			out.StatusPatch, out.Patch = status, nonStatus
		}
	}
	return impacted, diffBytes
}

type actionCase struct {
	ID     string                 `json:"id"`
	Object map[string]interface{} `json:"object"`
	Action string                 `json:"action,omitempty"`
	Params map[string]string      `json:"params,omitempty"`
}

func cmdActions(in io.Reader) error {
	var input struct {
		Data  map[string]string `json:"data"`
		Cases []actionCase      `json:"cases"`
	}
	if err := json.NewDecoder(in).Decode(&input); err != nil {
		return fmt.Errorf("reading the cases: %w", err)
	}
	ov, err := overrides(input.Data)
	if err != nil {
		return err
	}
	vm := lua.VM{ResourceOverrides: ov}
	results := make([]outcome, 0, len(input.Cases))
	for _, c := range input.Cases {
		obj := &unstructured.Unstructured{Object: c.Object}
		out := outcome{ID: c.ID}
		if acts, err := discover(vm, obj); err != nil {
			out.DiscoveryError = err.Error()
		} else {
			out.Actions = acts
		}
		if c.Action != "" {
			runAction(vm, obj.DeepCopy(), c.Action, c.Params, &out)
		}
		results = append(results, out)
	}
	return json.NewEncoder(os.Stdout).Encode(results)
}

// restConfig is KUBECONFIG's cluster with the client rate limits Argo CD sets on every cluster's config
// (pkg/apis/application/v1alpha1: 50 requests a second, bursts of 100); client-go's own 5 a second leaves a
// sync of CRDs and their objects waiting minutes on discovery that Argo CD never waits for.
func restConfig() (*rest.Config, error) {
	config, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(clientcmd.NewDefaultClientConfigLoadingRules(), &clientcmd.ConfigOverrides{}).ClientConfig()
	if err != nil {
		return nil, err
	}
	config.QPS = appv1.K8sClientConfigQPS
	config.Burst = appv1.K8sClientConfigBurst
	return config, nil
}

// syncAttempts bounds ensureSynced's tries.
const syncAttempts = 5

// ensureSynced reads the cluster into the cache as Argo CD's application controller comes to read it: a sync that
// failed (an API server too busy to send its OpenAPI document before the client's timeout) is not final there, since
// the controller asks the cache again on its next reconciliation and gitops-engine syncs again once its retry window
// (cache.ClusterRetryTimeout) has passed. Here at most syncAttempts tries, each failure said on stderr.
func ensureSynced(c cache.ClusterCache) error {
	var err error
	for attempt := 1; attempt <= syncAttempts; attempt++ {
		if err = c.EnsureSynced(); err == nil {
			return nil
		}
		fmt.Fprintf(os.Stderr, "argocd-engine: reading the cluster failed (try %d of %d): %v\n", attempt, syncAttempts, err)
		if attempt < syncAttempts {
			time.Sleep(cache.ClusterRetryTimeout + time.Second)
		}
	}
	return err
}

func cmdRun(in io.Reader) error {
	var input struct {
		Data      map[string]string `json:"data"`
		Group     string            `json:"group"`
		Version   string            `json:"version"`
		Kind      string            `json:"kind"`
		Namespace string            `json:"namespace"`
		Name      string            `json:"name"`
		Action    string            `json:"action"`
		Params    map[string]string `json:"params"`
	}
	if err := json.NewDecoder(in).Decode(&input); err != nil {
		return fmt.Errorf("reading the request: %w", err)
	}
	ov, err := overrides(input.Data)
	if err != nil {
		return err
	}
	config, err := restConfig()
	if err != nil {
		return err
	}
	ctx := context.Background()
	kubectl := &kube.KubectlCmd{Log: logr.Discard(), Tracer: tracing.NopTracer{}}
	gvk := schema.GroupVersionKind{Group: input.Group, Version: input.Version, Kind: input.Kind}
	live, err := kubectl.GetResource(ctx, config, gvk, input.Name, input.Namespace)
	if err != nil {
		return fmt.Errorf("error getting resource: %w", err)
	}
	vm := lua.VM{ResourceOverrides: ov}
	out := outcome{}
	if out.Actions, err = discover(vm, live); err != nil {
		out.DiscoveryError = err.Error()
	}
	impacted, diffBytes := runAction(vm, live.DeepCopy(), input.Action, input.Params, &out)
	if out.ActionError != "" {
		return json.NewEncoder(os.Stdout).Encode(out)
	}
	// RunResourceActionV2: every object to create is first created with a dry run, then the operations run in order
	for _, r := range impacted {
		if r.K8SOperation == lua.CreateOperation {
			o := r.UnstructuredObj
			if _, err := kubectl.CreateResource(ctx, config, o.GroupVersionKind(), o.GetName(), o.GetNamespace(), o, metav1.CreateOptions{DryRun: []string{"All"}}); err != nil {
				out.ActionError = err.Error()
				return json.NewEncoder(os.Stdout).Encode(out)
			}
		}
	}
	for _, r := range impacted {
		o := r.UnstructuredObj
		switch r.K8SOperation {
		case lua.CreateOperation:
			if _, err := kubectl.CreateResource(ctx, config, o.GroupVersionKind(), o.GetName(), o.GetNamespace(), o, metav1.CreateOptions{}); err != nil {
				out.ActionError = fmt.Sprintf("error creating resource: %v", err)
				return json.NewEncoder(os.Stdout).Encode(out)
			}
			out.Applied = append(out.Applied, fmt.Sprintf("created %s %s/%s", o.GetKind(), o.GetNamespace(), o.GetName()))
		case lua.PatchOperation:
			if diffBytes == nil {
				continue
			}
			// patchResource: the whole patch to the status subresource first when it changes status (a 404 means the
			// kind has no status subresource, and the whole patch goes to the object), then the rest to the object
			patch := diffBytes
			nonStatus, status, err := splitStatusPatch(diffBytes)
			if err != nil {
				return err
			}
			if status != nil {
				_, err := kubectl.PatchResource(ctx, config, o.GroupVersionKind(), o.GetName(), o.GetNamespace(), types.MergePatchType, diffBytes, "status")
				if err != nil && !apierrors.IsNotFound(err) {
					out.ActionError = fmt.Sprintf("error patching resource: %v", err)
					return json.NewEncoder(os.Stdout).Encode(out)
				}
				if err == nil {
					out.Applied = append(out.Applied, "patched status: "+string(diffBytes))
					patch = nonStatus
				}
			}
			if patch != nil {
				if _, err := kubectl.PatchResource(ctx, config, o.GroupVersionKind(), o.GetName(), o.GetNamespace(), types.MergePatchType, patch); err != nil {
					out.ActionError = fmt.Sprintf("error patching resource: %v", err)
					return json.NewEncoder(os.Stdout).Encode(out)
				}
				out.Applied = append(out.Applied, "patched: "+string(patch))
			}
		}
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}

type syncResult struct {
	Group     string `json:"group"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	Status    string `json:"status"`
	Message   string `json:"message,omitempty"`
	SyncPhase string `json:"syncPhase,omitempty"`
	Order     int    `json:"order"`
}

type driftEntry struct {
	Group     string `json:"group"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	Diff      string `json:"diff"`
}

const trackingAnnotation = "argocd.argoproj.io/tracking-id"

// track writes Argo CD's tracking annotation (the default tracking method of v3) on a target, as the controller does.
func track(app string, o *unstructured.Unstructured) {
	a := o.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	a[trackingAnnotation] = fmt.Sprintf("%s:%s/%s:%s/%s", app, o.GroupVersionKind().Group, o.GetKind(), o.GetNamespace(), o.GetName())
	o.SetAnnotations(a)
}

func cmdSync(in io.Reader) error {
	var input struct {
		App               string                            `json:"app"`
		Namespace         string                            `json:"namespace"`
		Data              map[string]string                 `json:"data"`
		Manifests         []map[string]interface{}          `json:"manifests"`
		ServerSideApply   bool                              `json:"serverSideApply"`
		Prune             bool                              `json:"prune"`
		IgnoreDifferences []appv1.ResourceIgnoreDifferences `json:"ignoreDifferences"`
		ServerSideDiff    bool                              `json:"serverSideDiff"`
		TimeoutSeconds    int                               `json:"timeoutSeconds"`
		Verbose           bool                              `json:"verbose"`
	}
	if err := json.NewDecoder(in).Decode(&input); err != nil {
		return fmt.Errorf("reading the request: %w", err)
	}
	ov, err := overrides(input.Data)
	if err != nil {
		return err
	}
	ignoreStatus(ov, input.Data["resource.compareoptions"])
	config, err := restConfig()
	if err != nil {
		return err
	}
	log := logr.Discard()
	if input.Verbose {
		stdr.SetVerbosity(1)
		log = stdr.New(nil)
	}
	kubectl := &kube.KubectlCmd{Log: log, Tracer: tracing.NopTracer{}}
	clusterCache := cache.NewClusterCache(config, cache.SetKubectl(kubectl), cache.SetLogr(log),
		cache.SetPopulateResourceInfoHandler(func(un *unstructured.Unstructured, _ bool) (interface{}, bool) {
			_, tracked := un.GetAnnotations()[trackingAnnotation]
			return nil, tracked
		}))
	if err := ensureSynced(clusterCache); err != nil {
		return fmt.Errorf("reading the cluster: %w", err)
	}
	defer clusterCache.Invalidate()

	targets := make([]*unstructured.Unstructured, 0, len(input.Manifests))
	for _, m := range input.Manifests {
		o := &unstructured.Unstructured{Object: m}
		track(input.App, o)
		targets = append(targets, o)
	}
	prefix := input.App + ":"
	isManaged := func(r *cache.Resource) bool {
		return r.Resource != nil && strings.HasPrefix(r.Resource.GetAnnotations()[trackingAnnotation], prefix)
	}
	timeout := time.Duration(input.TimeoutSeconds) * time.Second
	if timeout == 0 {
		timeout = 10 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	policy := metav1.DeletePropagationForeground
	// the controller's options (controller/sync.go) for a sync with these sync options
	opts := []sync.SyncOpt{
		sync.WithLogr(log),
		sync.WithHealthOverride(lua.ResourceHealthOverrides(ov)),
		sync.WithOperationSettings(false, input.Prune, false, false),
		sync.WithManifestValidation(true),
		sync.WithPrunePropagationPolicy(&policy),
		sync.WithServerSideApply(input.ServerSideApply),
		sync.WithServerSideApplyManager("argocd-controller"),
		sync.WithClientSideApplyMigration(true, common.DefaultClientSideApplyMigrationManager),
		// Argo CD waits 2 s between waves (controller/sync.go's delayBetweenSyncWaves, ARGOCD_SYNC_WAVE_DELAY)
		sync.WithSyncWaveHook(func(_ common.SyncPhase, _ int, finalWave bool) error {
			if !finalWave {
				time.Sleep(2 * time.Second)
			}
			return nil
		}),
	}
	started := time.Now()
	res, syncErr := operate(ctx, clusterCache, config, kubectl, targets, isManaged, input.Namespace, opts)
	out := struct {
		Results []syncResult `json:"results"`
		Error   string       `json:"error,omitempty"`
		Seconds float64      `json:"seconds"`
		Drift   []driftEntry `json:"drift"`
		Managed int          `json:"managed"`
	}{Results: []syncResult{}, Drift: []driftEntry{}, Seconds: time.Since(started).Seconds()}
	if syncErr != nil {
		out.Error = syncErr.Error()
	}
	for _, r := range res {
		out.Results = append(out.Results, syncResult{Group: r.ResourceKey.Group, Kind: r.ResourceKey.Kind, Namespace: r.ResourceKey.Namespace,
			Name: r.ResourceKey.Name, Status: string(r.Status), Message: r.Message, SyncPhase: string(r.SyncPhase), Order: r.Order})
	}
	// Argo CD's comparison after the sync, as the controller's CompareAppState makes it (controller/state.go) with
	// util/argo/diff's StateDiffs: the live objects read again; the app's ignoreDifferences and the argocd-cm
	// overrides as the ignore and known-types normalizers (util/argo/normalizers); gitops-engine's diff with the
	// cluster's OpenAPI models, Argo CD's field manager and, for an app that syncs with ServerSideApply=true,
	// structured merge diff. (util/argo/diff itself calls gitops-engine's diff without the context argument the
	// gitops-engine commits the Go module proxy serves take, so its steps are made here, with the same packages.)
	if err := ensureSynced(clusterCache); err != nil {
		return err
	}
	dctx, dcancel := context.WithTimeout(context.Background(), time.Minute)
	defer dcancel()
	var lives, configs []*unstructured.Unstructured
	for _, t := range targets {
		gvk := t.GroupVersionKind()
		target := t.DeepCopy()
		if target.GetNamespace() == "" && input.Namespace != "" {
			if namespaced, err := clusterCache.IsNamespaced(gvk.GroupKind()); err == nil && namespaced {
				target.SetNamespace(input.Namespace)
			}
		}
		live, err := kubectl.GetResource(dctx, config, gvk, target.GetName(), target.GetNamespace())
		if err != nil {
			if !apierrors.IsNotFound(err) {
				return err
			}
			live = nil
		} else {
			out.Managed++
		}
		lives = append(lives, live)
		configs = append(configs, target)
	}
	ignoreNormalizer, err := normalizers.NewIgnoreNormalizer(input.IgnoreDifferences, ov, normalizers.IgnoreNormalizerOpts{})
	if err != nil {
		return err
	}
	knownTypes, err := normalizers.NewKnownTypesNormalizer(ov)
	if err != nil {
		return err
	}
	diffOpts := []diff.Option{
		diff.WithNormalizer(composed{ignoreNormalizer, knownTypes}),
		diff.WithStructuredMergeDiff(input.ServerSideApply),
		diff.WithGVKParser(clusterCache.GetGVKParser()),
		diff.WithManager("argocd-controller"),
		diff.WithServerSideDiff(input.ServerSideDiff),
		diff.WithLogr(log),
	}
	// an Application annotated argocd.argoproj.io/compare-options: ServerSideDiff=true: the predicted live object is
	// a server-side dry-run apply as argocd-controller (the controller's getServerSideDiffDryRunApplier), so the API
	// server's and the webhooks' defaults are in it; the changes of mutating webhooks are left out of the comparison
	// (gitops-engine's default, IncludeMutationWebhook unset)
	if input.ServerSideDiff {
		applier, cleanupApplier, err := kubectl.ManageServerSideDiffDryRuns(config)
		if err != nil {
			return fmt.Errorf("the server-side diff's dry runs: %w", err)
		}
		defer cleanupApplier()
		diffOpts = append(diffOpts, diff.WithServerSideDryRunner(diff.NewK8sServerSideDryRunner(applier)))
	}
	diffs, err := diff.DiffArray(dctx, configs, lives, diffOpts...)
	if err != nil {
		return err
	}
	for i, r := range diffs.Diffs {
		if r.Modified {
			t := configs[i]
			out.Drift = append(out.Drift, driftEntry{Group: t.GroupVersionKind().Group, Kind: t.GetKind(), Namespace: t.GetNamespace(), Name: t.GetName(), Diff: changedPaths(&r)})
		}
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}

// operate runs a sync operation as Argo CD's application controller does (controller/sync.go's SyncAppState, once
// per reconciliation of the app until the operation completes): each round reads the live state again from the
// cluster cache, makes a new sync context that starts from the operation's state so far (phase, message, the
// results of each resource), and runs one step of it. (gitops-engine's own engine.Sync keeps the live objects it
// read first for the whole operation, so a wave that waits for an object created in the same operation to be
// healthy never sees it and waits for ever.)
func operate(ctx context.Context, clusterCache cache.ClusterCache, config *rest.Config, kubectl kube.Kubectl, targets []*unstructured.Unstructured,
	isManaged func(r *cache.Resource) bool, namespace string, opts []sync.SyncOpt) ([]common.ResourceSyncResult, error) {
	var phase common.OperationPhase
	var message string
	var results []common.ResourceSyncResult
	startedAt := metav1.Now()
	for {
		live, err := clusterCache.GetManagedLiveObjs(targets, isManaged)
		if err != nil {
			return results, fmt.Errorf("reading the live objects: %w", err)
		}
		reconciled := sync.Reconcile(targets, live, namespace, clusterCache)
		syncCtx, cleanup, err := sync.NewSyncContext("cluster-tier", reconciled, config, config, kubectl, namespace,
			append(append([]sync.SyncOpt{}, opts...), sync.WithInitialState(phase, message, results, startedAt))...)
		if err != nil {
			return results, fmt.Errorf("making the sync context: %w", err)
		}
		if ctx.Err() != nil {
			// out of time: stop the operation as Argo CD terminates one
			syncCtx.Terminate(context.Background())
			_, _, results = syncCtx.GetState()
			cleanup()
			return results, fmt.Errorf("sync operation still %s after the timeout: %s", phase, message)
		}
		syncCtx.Sync(ctx)
		phase, message, results = syncCtx.GetState()
		cleanup()
		if phase.Completed() {
			if phase != common.OperationSucceeded {
				return results, fmt.Errorf("sync operation %s: %s", phase, message)
			}
			return results, nil
		}
		time.Sleep(time.Second)
	}
}

// ignoreStatus adds what Argo CD's settings manager adds to the resource overrides for argocd-cm's
// resource.compareoptions (util/settings GetResourceOverrides): with ignoreResourceStatusField all, the default
// since Argo CD 3.0, the comparison ignores /status of every kind; crd, only of CustomResourceDefinitions.
func ignoreStatus(ov map[string]appv1.ResourceOverride, compareOptions string) {
	var o struct {
		IgnoreResourceStatusField string `json:"ignoreResourceStatusField"`
	}
	_ = yaml.Unmarshal([]byte(compareOptions), &o)
	gk := "*/*"
	switch o.IgnoreResourceStatusField {
	case "none", "off", "false":
		return
	case "crd":
		gk = "apiextensions.k8s.io/CustomResourceDefinition"
	}
	v := ov[gk]
	v.IgnoreDifferences.JSONPointers = append(v.IgnoreDifferences.JSONPointers, "/status")
	ov[gk] = v
}

// composed runs normalizers in turn, as util/argo/diff's composableNormalizer does.
type composed []diff.Normalizer

func (c composed) Normalize(un *unstructured.Unstructured) error {
	for _, n := range c {
		if err := n.Normalize(un); err != nil {
			return err
		}
	}
	return nil
}

// changedPaths names what differs between the normalized manifest and the live object.
func changedPaths(r *diff.DiffResult) string {
	patch, err := jsonpatch.CreateMergePatch(r.NormalizedLive, r.PredictedLive)
	if err != nil {
		return err.Error()
	}
	return string(patch)
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: argocd-engine (actions | run | sync) < request.json")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "actions":
		err = cmdActions(os.Stdin)
	case "run":
		err = cmdRun(os.Stdin)
	case "sync":
		err = cmdSync(os.Stdin)
	default:
		fmt.Fprintf(os.Stderr, "argocd-engine: no command %s (actions, run, sync)\n", os.Args[1])
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "argocd-engine: %v\n", err)
		os.Exit(1)
	}
}
