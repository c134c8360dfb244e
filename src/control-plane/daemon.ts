/**
 * kruise-daemon: the per-node DaemonSet (image pulls, container restarts,
 * pod probes).
 */
import { ApiObject, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ComponentRender, renderResources } from './_util';
import { hardenedSecurityContext } from './manager';
import { KruiseDaemonOptions } from './options';
import { NAMES } from './rbac';

/** The default daemon resources (the chart's). */
export const DAEMON_RESOURCES: kplus.ContainerResources = {
  cpu: { request: kplus.Cpu.units(0), limit: kplus.Cpu.millis(50) },
  memory: { request: Size.mebibytes(0), limit: Size.mebibytes(128) },
};

const VIRTUAL_KUBELET: k8s.NodeSelectorRequirement = { key: 'type', operator: 'NotIn', values: ['virtual-kubelet'] };

/** The daemon affinity: the user's, with the virtual-kubelet exclusion added to every required term. */
export function daemonAffinity(o: KruiseDaemonOptions): k8s.Affinity | undefined {
  const a = o.affinity;
  if (!(o.skipVirtualKubeletNodes ?? true)) return a;
  const required = a?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  const terms = required && required.nodeSelectorTerms.length > 0
    ? required.nodeSelectorTerms.map(t => ({ ...t, matchExpressions: [...(t.matchExpressions ?? []), VIRTUAL_KUBELET] }))
    : [{ matchExpressions: [VIRTUAL_KUBELET] }];
  return {
    ...(a ?? {}),
    nodeAffinity: {
      ...(a?.nodeAffinity ?? {}),
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms },
    },
  };
}

/** Resolved options for rendering. */
export interface DaemonRender extends ComponentRender {
  readonly options: KruiseDaemonOptions;
}

/** Create the daemon DaemonSet under `scope`. */
export function addDaemon(scope: Construct, r: DaemonRender): ApiObject {
  const o = r.options;
  const port = o.port ?? 10221;
  const pprof = o.enablePprof ?? true;
  const cp = o.credentialProvider;
  const args = [
    '--logtostderr=true',
    `--v=${o.logLevel ?? 4}`,
    `--addr=:${port}`,
    `--feature-gates=${r.featureGates}`,
    `--socket-file=${o.socketFile ?? ''}`,
    ...(pprof ? ['--enable-pprof=true', `--pprof-addr=${o.pprofAddress ?? 'localhost:10222'}`] : ['--enable-pprof=false']),
  ];
  if (cp) args.push('--plugin-config-file=/credential-provider-config/CredentialProviderPlugin.yaml', '--plugin-bin-dir=/credential-provider-plugin');
  if (o.restConfigQps !== undefined) args.push(`--rest-config-qps=${o.restConfigQps}`);
  if (o.restConfigBurst !== undefined) args.push(`--rest-config-burst=${o.restConfigBurst}`);

  const env: k8s.EnvVar[] = [];
  if (r.cacheMutationDetector) env.push({ name: 'KUBE_CACHE_MUTATION_DETECTOR', value: 'true' });
  env.push({ name: 'NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } });
  for (const [name, v] of Object.entries(o.extraEnv ?? {})) env.push({ name, value: v.value, valueFrom: v.valueFrom });

  const mounts: k8s.VolumeMount[] = [{ mountPath: '/hostvarrun', name: 'runtime-socket', readOnly: true }];
  const volumes: k8s.Volume[] = [{ hostPath: { path: o.socketLocation ?? '/var/run', type: '' }, name: 'runtime-socket' }];
  if (cp) {
    mounts.push(
      { name: 'credential-provider-plugin-config', mountPath: '/credential-provider-config', readOnly: true },
      { name: 'credential-provider-plugin', mountPath: '/credential-provider-plugin', readOnly: true },
    );
    volumes.push(
      { name: 'credential-provider-plugin-config', configMap: { name: cp.configMapName ?? 'credential-provider-config' } },
      { hostPath: { path: cp.hostPath ?? 'credential-provider-plugin', type: '' }, name: 'credential-provider-plugin' },
    );
    if (cp.awsCredentialsDir) {
      mounts.push({ name: 'aws-credentials-dir', mountPath: '/root/.aws', readOnly: true });
      volumes.push({ hostPath: { path: cp.awsCredentialsDir, type: '' }, name: 'aws-credentials-dir' });
    }
  }

  const labels = { 'control-plane': 'daemon' };
  return new k8s.KubeDaemonSet(scope, 'DaemonSet', {
    metadata: { name: 'kruise-daemon', namespace: r.namespace, labels: { ...labels } },
    spec: {
      selector: { matchLabels: { ...labels } },
      minReadySeconds: 3,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: k8s.IntOrString.fromString('10%') } },
      template: {
        metadata: { labels: { ...labels } },
        spec: {
          imagePullSecrets: r.imagePullSecrets.length > 0 ? r.imagePullSecrets.map(name => ({ name })) : undefined,
          affinity: daemonAffinity(o),
          nodeSelector: o.nodeSelector && Object.keys(o.nodeSelector).length > 0 ? { ...o.nodeSelector } : undefined,
          containers: [{
            command: ['/kruise-daemon'],
            args,
            image: r.image,
            imagePullPolicy: r.imagePullPolicy,
            securityContext: o.privileged ? { privileged: true } : hardenedSecurityContext(port < 1024, false),
            name: 'daemon',
            env,
            livenessProbe: {
              failureThreshold: 3,
              httpGet: { path: '/healthz', port: k8s.IntOrString.fromNumber(port), scheme: 'HTTP' },
              initialDelaySeconds: 60,
              periodSeconds: 10,
              successThreshold: 1,
              timeoutSeconds: 1,
            },
            resources: renderResources(o.resources ?? DAEMON_RESOURCES),
            volumeMounts: mounts,
          }],
          tolerations: [{ operator: 'Exists' }],
          hostNetwork: true,
          dnsPolicy: 'ClusterFirstWithHostNet',
          terminationGracePeriodSeconds: 10,
          serviceAccountName: NAMES.daemonServiceAccount,
          priorityClassName: o.priorityClassName,
          volumes,
        },
      },
    },
  });
}
