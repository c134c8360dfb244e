/**
 * Changes to the Kubernetes objects the OpenKruise kinds embed untyped (the
 * CRDs keep them as written; the webhooks decode them into the core types of
 * the Kubernetes release each OpenKruise release was built with and run the
 * core checks on them): pod templates with every volume type and container
 * feature, containers, volumes, claim templates, job templates, Deployment and
 * StatefulSet specs, object metadata, patches. Every value here is written
 * from the Kubernetes API's field definitions, valid ones and broken ones.
 */
import * as fc from 'fast-check';
import { IMAGES, LABEL_KEYS, LABEL_VALUES, selectors } from './values';

/** One change to an object: what it is (for the case's description) and the change itself (on a copy). */
export interface Change {
  readonly what: string;
  readonly apply: (target: any) => void;
}

const set = (path: string, value: unknown): Change => ({
  what: `${path} = ${JSON.stringify(value)}`,
  apply: t => {
    const keys = path.split('.');
    let o = t;
    for (const k of keys.slice(0, -1)) {
      if (o[k] === null || typeof o[k] !== 'object') o[k] = {};
      o = o[k];
    }
    const last = keys[keys.length - 1];
    if (value === undefined) delete o[last]; else o[last] = clone(value);
  },
});

const clone = <T>(x: T): T => (x === undefined ? x : JSON.parse(JSON.stringify(x)));

/** Every volume source of core/v1, valid, and broken ways to write some. */
export const VOLUMES: Array<Record<string, unknown>> = [
  { emptyDir: {} },
  { emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
  { emptyDir: { medium: 'Disk' } },
  { emptyDir: { sizeLimit: '-1Gi' } },
  { hostPath: { path: '/var/log' } },
  { hostPath: { path: '/var/log', type: 'Directory' } },
  { hostPath: { path: '/var/log', type: 'Folder' } },
  { hostPath: { path: '' } },
  { hostPath: { path: '/var/../etc' } },
  { configMap: { name: 'settings' } },
  { configMap: { name: 'settings', items: [{ key: 'a', path: 'a.conf' }], defaultMode: 0o644 } },
  { configMap: { name: 'settings', items: [{ key: 'a', path: '../a' }] } },
  { configMap: { name: 'settings', defaultMode: 0o1000 } },
  { secret: { secretName: 'creds' } },
  { secret: { secretName: 'creds', optional: true, defaultMode: 256 } },
  { secret: { secretName: '' } },
  { persistentVolumeClaim: { claimName: 'data' } },
  { persistentVolumeClaim: { claimName: '' } },
  { projected: { sources: [{ configMap: { name: 'settings' } }, { secret: { name: 'creds' } }] } },
  { projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600, audience: 'vault' } }] } },
  { projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 60 } }] } },
  { projected: { sources: [{ downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } }] } },
  { projected: { sources: [{ clusterTrustBundle: { signerName: 'example.com/signer', path: 'ca.pem' } }] } },
  { downwardAPI: { items: [{ path: 'name', fieldRef: { fieldPath: 'metadata.name' } }] } },
  { downwardAPI: { items: [{ path: 'cpu', resourceFieldRef: { containerName: 'web', resource: 'limits.cpu' } }] } },
  { downwardAPI: { items: [{ path: 'x', fieldRef: { fieldPath: 'spec.bogus' } }] } },
  { csi: { driver: 'secrets-store.csi.k8s.io', readOnly: true, volumeAttributes: { secretProviderClass: 'vault' } } },
  { csi: { driver: '' } },
  { ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } },
  { ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'] } } } },
  { nfs: { server: 'nfs.example.com', path: '/exports' } },
  { nfs: { server: '', path: 'relative' } },
  { iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0 } },
  { gcePersistentDisk: { pdName: 'disk-1', fsType: 'ext4' } },
  { gcePersistentDisk: { pdName: 'disk-1', readOnly: false } },
  { awsElasticBlockStore: { volumeID: 'vol-123', fsType: 'ext4' } },
  { azureDisk: { diskName: 'd', diskURI: 'https://example/d.vhd' } },
  { azureFile: { secretName: 'az', shareName: 'share' } },
  { cephfs: { monitors: ['10.0.0.1:6789'] } },
  { cinder: { volumeID: 'v' } },
  { fc: { targetWWNs: ['500a0982991b8dc5'], lun: 2 } },
  { flexVolume: { driver: 'example.com/flex' } },
  { flocker: { datasetName: 'ds' } },
  { gitRepo: { repository: 'https://example.com/repo.git' } },
  { glusterfs: { endpoints: 'gl', path: 'vol' } },
  { photonPersistentDisk: { pdID: 'p' } },
  { portworxVolume: { volumeID: 'p' } },
  { quobyte: { registry: 'r:7861', volume: 'v' } },
  { rbd: { monitors: ['10.0.0.1:6789'], image: 'img' } },
  { scaleIO: { gateway: 'https://gw', system: 's', secretRef: { name: 's' } } },
  { storageos: { volumeName: 'v' } },
  { vsphereVolume: { volumePath: '[ds] v.vmdk' } },
  { image: { reference: 'registry.example.com/data:v1', pullPolicy: 'IfNotPresent' } },
  { image: { reference: '' } },
  {},
  { emptyDir: {}, hostPath: { path: '/tmp' } },
  { emptyDir: 'yes' },
];

/** A container's fields, with valid values and broken ones. */
const CONTAINER_FIELDS: Array<[string, unknown[]]> = [
  ['name', ['web', 'sidecar', '', 'Web', 'a_b', 'x'.repeat(64)]],
  ['image', IMAGES],
  ['imagePullPolicy', ['Always', 'IfNotPresent', 'Never', 'Sometimes', '']],
  ['command', [['sh', '-c', 'sleep 3600'], [], 'sh']],
  ['args', [['--port=8080'], [''], 1]],
  ['workingDir', ['/app', 'relative', '']],
  ['ports', [
    [{ containerPort: 8080 }],
    [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
    [{ containerPort: 8080, protocol: 'SCTP' }, { containerPort: 8080, protocol: 'UDP' }],
    [{ containerPort: 0 }],
    [{ containerPort: 65536 }],
    [{ containerPort: 8080, protocol: 'tcp' }],
    [{ containerPort: 8080, name: 'http-port-too-long' }],
    [{ containerPort: 8080, name: 'http' }, { containerPort: 8081, name: 'http' }],
    [{ containerPort: 8080, hostPort: 80 }],
    [{ containerPort: 8080, hostPort: 70000 }],
    [{ containerPort: 8080 }, { containerPort: 8080 }],
    [{ name: 'http' }],
  ]],
  ['env', [
    [{ name: 'MODE', value: 'prod' }],
    [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
    [{ name: 'APP', valueFrom: { fieldRef: { fieldPath: 'metadata.labels[\'app\']' } } }],
    [{ name: 'X', valueFrom: { fieldRef: { fieldPath: 'spec.containers' } } }],
    [{ name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } }],
    [{ name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.gpu' } } }],
    [{ name: 'K', valueFrom: { configMapKeyRef: { name: 'settings', key: 'k' } } }],
    [{ name: 'K', valueFrom: { secretKeyRef: { name: 'creds', key: 'k', optional: true } } }],
    [{ name: 'K', valueFrom: { secretKeyRef: { name: 'creds', key: 'bad key' } } }],
    [{ name: 'K', value: 'v', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
    [{ name: 'K', valueFrom: {} }],
    [{ name: '1BAD', value: 'x' }],
    [{ name: 'A=B', value: 'x' }],
    [{ name: '', value: 'x' }],
    [{ name: 'A', value: 'x' }, { name: 'A', value: 'y' }],
    [{ name: 'A', value: 1 }],
  ]],
  ['envFrom', [
    [{ configMapRef: { name: 'settings' } }],
    [{ prefix: 'APP_', secretRef: { name: 'creds' } }],
    [{ prefix: '1 bad', configMapRef: { name: 'settings' } }],
    [{ configMapRef: { name: 'settings' }, secretRef: { name: 'creds' } }],
    [{}],
  ]],
  ['resources', [
    { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '1', memory: '256Mi' } },
    { requests: { cpu: '2' }, limits: { cpu: '1' } },
    { requests: { memory: '1.5.5' } },
    { requests: { cpu: '-1' } },
    { limits: { 'hugepages-2Mi': '1Gi' } },
    { limits: { 'hugepages-2Mi': '1Gi', 'memory': '1Gi', 'cpu': '1' } },
    { limits: { 'example.com/gpu': '1' } },
    { requests: { 'example.com/gpu': '1' } },
    { limits: { 'example.com/gpu': '500m' } },
    { requests: { bogus: '1' } },
    { claims: [{ name: 'gpu' }] },
    { requests: { cpu: 1 } },
  ]],
  ['resizePolicy', [
    [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
    [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }],
    [{ resourceName: 'cpu', restartPolicy: 'Sometimes' }],
    [{ resourceName: 'gpu', restartPolicy: 'NotRequired' }],
    [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }, { resourceName: 'cpu', restartPolicy: 'NotRequired' }],
  ]],
  ['restartPolicy', ['Always', 'Never', 'OnFailure', '']],
  ['volumeMounts', [
    [{ name: 'gen-volume', mountPath: '/data' }],
    [{ name: 'missing', mountPath: '/data' }],
    [{ name: 'gen-volume', mountPath: '' }],
    [{ name: 'gen-volume', mountPath: 'relative' }],
    [{ name: 'gen-volume', mountPath: '/data', subPath: '/abs' }],
    [{ name: 'gen-volume', mountPath: '/data', subPath: '../up' }],
    [{ name: 'gen-volume', mountPath: '/data', subPathExpr: '$(POD_NAME)' }],
    [{ name: 'gen-volume', mountPath: '/data', subPath: 'a', subPathExpr: 'b' }],
    [{ name: 'gen-volume', mountPath: '/data', mountPropagation: 'Bidirectional' }],
    [{ name: 'gen-volume', mountPath: '/data', mountPropagation: 'Sideways' }],
    [{ name: 'gen-volume', mountPath: '/data', readOnly: true, recursiveReadOnly: 'Enabled' }],
    [{ name: 'gen-volume', mountPath: '/data' }, { name: 'gen-volume', mountPath: '/data' }],
  ]],
  ['volumeDevices', [[{ name: 'gen-volume', devicePath: '/dev/xvda' }], [{ name: 'missing', devicePath: '/dev/x' }]]],
  ['livenessProbe', [
    { httpGet: { path: '/healthz', port: 8080 } },
    { httpGet: { path: '/healthz', port: 'http' } },
    { httpGet: { path: '/healthz', port: 'no_such_name' } },
    { httpGet: { port: 0 } },
    { tcpSocket: { port: 8080 } },
    { exec: { command: ['true'] } },
    { grpc: { port: 9090 } },
    { grpc: { port: 9090, service: 'health' } },
    { exec: { command: ['true'] }, tcpSocket: { port: 8080 } },
    {},
    { exec: { command: ['true'] }, successThreshold: 2 },
    { exec: { command: ['true'] }, initialDelaySeconds: -1 },
    { exec: { command: ['true'] }, periodSeconds: 0, timeoutSeconds: 0 },
    { exec: { command: ['true'] }, terminationGracePeriodSeconds: 0 },
    { exec: { command: ['true'] }, terminationGracePeriodSeconds: 10 },
  ]],
  ['readinessProbe', [
    { httpGet: { path: '/ready', port: 8080, scheme: 'HTTPS' } },
    { httpGet: { path: '/ready', port: 8080, scheme: 'FTP' } },
    { tcpSocket: { port: 8080 }, successThreshold: 3 },
    { exec: { command: ['true'] }, terminationGracePeriodSeconds: 10 },
    { httpGet: { path: '/ready', port: 8080, httpHeaders: [{ name: 'X-Probe', value: '1' }] } },
    { httpGet: { path: '/ready', port: 8080, httpHeaders: [{ name: 'bad header', value: '1' }] } },
  ]],
  ['startupProbe', [
    { tcpSocket: { port: 8080 }, failureThreshold: 30 },
    { tcpSocket: { port: 8080 }, successThreshold: 2 },
    { tcpSocket: { port: 8080 }, successThreshold: 1 },
    { tcpSocket: { port: 8080 } },
  ]],
  ['lifecycle', [
    { preStop: { exec: { command: ['sleep', '5'] } } },
    { postStart: { httpGet: { path: '/started', port: 8080 } } },
    { preStop: { sleep: { seconds: 5 } } },
    { preStop: { sleep: { seconds: -1 } } },
    { preStop: { tcpSocket: { port: 8080 } } },
    { preStop: {} },
    { stopSignal: 'SIGTERM' },
  ]],
  ['securityContext', [
    { runAsNonRoot: true, runAsUser: 1000, allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
    { privileged: true },
    { privileged: true, allowPrivilegeEscalation: false },
    { capabilities: { add: ['SYS_ADMIN'] }, allowPrivilegeEscalation: false },
    { capabilities: { drop: ['ALL'] } },
    { runAsUser: -1 },
    { runAsGroup: 2147483648 },
    { procMount: 'Unmasked' },
    { procMount: 'Sideways' },
    { seccompProfile: { type: 'RuntimeDefault' } },
    { seccompProfile: { type: 'Localhost' } },
    { seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' } },
    { appArmorProfile: { type: 'RuntimeDefault' } },
    { appArmorProfile: { type: 'Localhost' } },
    { seLinuxOptions: { level: 's0:c123,c456' } },
    { windowsOptions: { hostProcess: true } },
  ]],
  ['terminationMessagePath', ['/dev/termination-log', '', 'relative']],
  ['terminationMessagePolicy', ['File', 'FallbackToLogsOnError', 'Bogus']],
  ['stdin', [true, 'yes']],
  ['tty', [true]],
  ['unknownContainerField', ['x']],
];

/** A pod's fields, with valid values and broken ones. */
const POD_FIELDS: Array<[string, unknown[]]> = [
  ['restartPolicy', ['Always', 'OnFailure', 'Never', '', 'Sometimes']],
  ['activeDeadlineSeconds', [0, 1, 30, -1]],
  ['terminationGracePeriodSeconds', [-1, 0, 30]],
  ['dnsPolicy', ['ClusterFirst', 'Default', 'None', 'ClusterFirstWithHostNet', 'Bogus']],
  ['dnsConfig', [
    { nameservers: ['1.1.1.1'], searches: ['example.com'], options: [{ name: 'ndots', value: '2' }] },
    { nameservers: ['not-an-ip'] },
    { nameservers: ['1.1.1.1', '1.1.1.2', '1.1.1.3', '1.1.1.4'] },
    {},
  ]],
  ['hostNetwork', [true, false]],
  ['hostPID', [true]],
  ['hostIPC', [true]],
  ['shareProcessNamespace', [true]],
  ['hostUsers', [false]],
  ['nodeSelector', [{ 'kubernetes.io/os': 'linux' }, { 'bad key': 'x' }, { zone: 'bad value!' }, {}]],
  ['nodeName', ['node-1', 'Bad_Node']],
  ['serviceAccountName', ['app', 'Bad_Name', '']],
  ['automountServiceAccountToken', [false]],
  ['affinity', [
    { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } } },
    { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } },
    { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Gt', values: ['a'] }] }] } } },
    { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] } }] } },
    { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'web' } } }] } },
    { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: '', labelSelector: { matchLabels: { app: 'web' } } }] } },
    { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 101, podAffinityTerm: { topologyKey: 'zone' } }] } },
    { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', matchLabelKeys: ['pod-template-hash'], labelSelector: { matchLabels: { app: 'web' } } }] } },
  ]],
  ['tolerations', [
    [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }],
    [{ operator: 'Exists' }],
    [{ key: 'dedicated', operator: 'Exists', value: 'web' }],
    [{ key: 'dedicated', effect: 'Sometimes' }],
    [{ key: 'dedicated', effect: 'NoSchedule', tolerationSeconds: 10 }],
    [{ key: 'dedicated', effect: 'NoExecute', tolerationSeconds: 10 }],
    [{ key: 'bad key', operator: 'Exists' }],
    [{ operator: 'Equal', value: 'x' }],
  ]],
  ['topologySpreadConstraints', [
    [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }],
    [{ maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }],
    [{ maxSkew: 1, topologyKey: '', whenUnsatisfiable: 'DoNotSchedule' }],
    [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'Maybe' }],
    [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', minDomains: 2 }],
    [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', minDomains: 0 }],
    [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }, { maxSkew: 2, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }],
    [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', nodeAffinityPolicy: 'Honor', nodeTaintsPolicy: 'Ignore' }],
    [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', nodeAffinityPolicy: 'Maybe' }],
    [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', matchLabelKeys: ['pod-template-hash'] }],
  ]],
  ['priorityClassName', ['high', 'Bad_Class']],
  ['priority', [1000]],
  ['preemptionPolicy', ['Never', 'PreemptLowerPriority', 'Sometimes']],
  ['schedulerName', ['my-scheduler', 'Bad Scheduler']],
  ['runtimeClassName', ['gvisor', 'Bad_Class']],
  ['securityContext', [
    { runAsNonRoot: true, runAsUser: 1000, fsGroup: 2000 },
    { runAsUser: -1 },
    { fsGroupChangePolicy: 'OnRootMismatch' },
    { fsGroupChangePolicy: 'Sometimes' },
    { sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] },
    { sysctls: [{ name: 'bad sysctl', value: '1' }] },
    { sysctls: [{ name: 'net.core.somaxconn', value: '1' }, { name: 'net.core.somaxconn', value: '2' }] },
    { seccompProfile: { type: 'Localhost' } },
    { supplementalGroups: [1, 2], supplementalGroupsPolicy: 'Strict' },
    { seLinuxChangePolicy: 'MountOption' },
  ]],
  ['imagePullSecrets', [[{ name: 'registry' }], [{ name: '' }], [{}]]],
  ['hostname', ['web-0', 'Bad_Host', 'x'.repeat(64)]],
  ['subdomain', ['svc', 'bad.sub.domain', 'Bad_Sub']],
  ['hostAliases', [[{ ip: '10.0.0.1', hostnames: ['db'] }], [{ ip: 'not-an-ip', hostnames: ['db'] }], [{ ip: '10.0.0.1', hostnames: ['Bad_Name'] }]]],
  ['readinessGates', [[{ conditionType: 'example.com/ready' }], [{ conditionType: 'bad condition' }], [{ conditionType: 'InPlaceUpdateReady' }]]],
  ['os', [{ name: 'linux' }, { name: 'windows' }, { name: 'plan9' }]],
  ['overhead', [{ cpu: '100m' }]],
  ['schedulingGates', [[{ name: 'example.com/wait' }], [{ name: 'bad gate' }]]],
  ['enableServiceLinks', [false]],
  ['setHostnameAsFQDN', [true]],
  ['resourceClaims', [[{ name: 'gpu', resourceClaimName: 'gpu-claim' }], [{ name: 'gpu' }]]],
  ['resources', [{ requests: { cpu: '1' }, limits: { cpu: '2' } }]],
  ['unknownPodField', ['x']],
];

const containerList = (spec: any): any[] => (Array.isArray(spec?.containers) ? spec.containers : []);

/** A change of one container field; `at` picks the list (containers, initContainers) and index. */
function containerChange(listName: string, index: number, field: string, value: unknown, base: string): Change {
  return {
    what: `${base}.${listName}[${index}].${field} = ${JSON.stringify(value)}`,
    apply: spec => {
      if (!Array.isArray(spec[listName])) spec[listName] = [];
      while (spec[listName].length <= index) spec[listName].push({ name: `gen-${listName.toLowerCase()}-${spec[listName].length}`, image: 'busybox:1.36' });
      const c = spec[listName][index];
      if (c === null || typeof c !== 'object') return;
      c[field] = clone(value);
      if (field === 'volumeMounts' || field === 'volumeDevices') ensureVolume(spec);
    },
  };
}

/** The volume the generated mounts name (`gen-volume`), when the pod has none of that name. */
function ensureVolume(spec: any): void {
  if (!Array.isArray(spec.volumes)) spec.volumes = [];
  if (!spec.volumes.some((v: any) => v?.name === 'gen-volume')) spec.volumes.push({ name: 'gen-volume', emptyDir: {} });
}

/** Changes to a pod spec (`base` names it in descriptions). */
export function podSpecChange(spec: any, base: string): fc.Arbitrary<Change> {
  const n = Math.max(1, containerList(spec).length);
  const field = fc.constantFrom(...CONTAINER_FIELDS).chain(([f, values]) => fc.constantFrom(...values).map(v => [f, v] as const));
  return fc.oneof(
    // a container's feature, on an existing or a new container, an init container or a sidecar (restartPolicy Always)
    {
      weight: 8,
      arbitrary: fc.tuple(fc.constantFrom('containers', 'initContainers'), fc.nat(n), field)
        .map(([list, i, [f, v]]) => containerChange(list, list === 'containers' ? i : 0, f, v, base)),
    },
    // a volume of every type, mounted by the first container or not
    {
      weight: 4,
      arbitrary: fc.tuple(fc.constantFrom(...VOLUMES), fc.constantFrom('gen-volume', 'Bad_Volume', ''), fc.boolean()).map(([source, name, mount]) => ({
        what: `${base}.volumes += ${JSON.stringify({ name, ...source })}${mount ? ' mounted at /gen' : ''}`,
        apply: (s: any) => {
          if (!Array.isArray(s.volumes)) s.volumes = [];
          s.volumes.push({ name, ...clone(source) });
          const c = containerList(s)[0];
          if (mount && c && typeof c === 'object') c.volumeMounts = [...(Array.isArray(c.volumeMounts) ? c.volumeMounts : []), { name, mountPath: '/gen' }];
        },
      })),
    },
    // a pod-level feature
    {
      weight: 5,
      arbitrary: fc.constantFrom(...POD_FIELDS).chain(([f, values]) => fc.constantFrom(...values).map(v => set(f, v)))
        .map(c => ({ what: `${base}.${c.what}`, apply: c.apply })),
    },
    // duplicates and removals
    {
      weight: 2,
      arbitrary: fc.constantFrom<Change>(
        { what: `${base}.containers[0] repeated`, apply: s => { const c = containerList(s)[0]; if (c) s.containers.push(clone(c)); } },
        { what: `${base}.containers = []`, apply: s => { s.containers = []; } },
        { what: `${base}.containers removed`, apply: s => { delete s.containers; } },
        { what: `${base}.volumes: a volume repeated`, apply: s => { ensureVolume(s); s.volumes.push(clone(s.volumes[0])); } },
        { what: `${base}.initContainers[0] named as containers[0]`, apply: s => { const c = containerList(s)[0]; if (c) s.initContainers = [{ ...clone(c) }]; } },
        { what: `${base}.ephemeralContainers = [debug]`, apply: s => { s.ephemeralContainers = [{ name: 'debug', image: 'busybox:1.36' }]; } },
      ),
    },
  );
}

/** Changes to a pod template: its spec (podSpecChange) or its metadata. */
export function podTemplateChange(template: any, base: string): fc.Arbitrary<Change> {
  const spec = template?.spec;
  const labels: Record<string, string> = template?.metadata?.labels ?? { app: 'web' };
  return fc.oneof(
    { weight: 9, arbitrary: podSpecChange(spec ?? {}, `${base}.spec`).map(c => ({ what: c.what, apply: (t: any) => { if (t.spec === null || typeof t.spec !== 'object') t.spec = {}; c.apply(t.spec); } })) },
    { weight: 2, arbitrary: metadataChange(labels, `${base}.metadata`).map(c => ({ what: c.what, apply: (t: any) => { if (t.metadata === null || typeof t.metadata !== 'object') t.metadata = {}; c.apply(t.metadata); } })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Change>(
        { what: `${base}.spec = "web"`, apply: t => { t.spec = 'web'; } },
        { what: `${base}.spec removed`, apply: t => { delete t.spec; } },
        { what: `${base}.metadata removed`, apply: t => { delete t.metadata; } },
        { what: `${base}.unknownField = 1`, apply: t => { t.unknownField = 1; } },
      ),
    },
  );
}

/** Changes to object metadata (labels, annotations, names). */
export function metadataChange(labels: Record<string, string>, base: string): fc.Arbitrary<Change> {
  return fc.oneof(
    fc.tuple(fc.constantFrom(...LABEL_KEYS), fc.constantFrom(...LABEL_VALUES)).map(([k, v]) => ({
      what: `${base}.labels[${JSON.stringify(k)}] = ${JSON.stringify(v)}`,
      apply: (m: any) => { m.labels = { ...(m.labels ?? {}), [k]: v }; },
    })),
    fc.tuple(fc.constantFrom(...LABEL_KEYS), fc.constantFrom('x', '', 'true', '{"a":1}')).map(([k, v]) => ({
      what: `${base}.annotations[${JSON.stringify(k)}] = ${JSON.stringify(v)}`,
      apply: (m: any) => { m.annotations = { ...(m.annotations ?? {}), [k]: v }; },
    })),
    fc.constantFrom(
      set('labels', {}),
      set('labels', undefined),
      set('labels', { app: 1 }),
      set('annotations', { a: null }),
      set('finalizers', ['example.com/keep']),
      set('finalizers', ['bad finalizer']),
      set('name', 'pod-name'),
      set('namespace', 'other'),
      set('generateName', 'web-'),
      set('labels', { ...labels, extra: 'x' }),
    ).map(c => ({ what: `${base}.${c.what}`, apply: c.apply })),
  );
}

/** Changes to a list of volume claim templates. */
export function claimTemplatesChange(base: string): fc.Arbitrary<Change> {
  const claim = (spec: unknown, name = 'data') => ({ metadata: { name }, spec });
  return fc.constantFrom<unknown>(
    [claim({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } })],
    [claim({ accessModes: ['ReadWriteOncePod'], resources: { requests: { storage: '1Gi' } } })],
    [claim({ accessModes: ['ReadWriteMany'], storageClassName: 'fast', volumeMode: 'Block', resources: { requests: { storage: '10Gi' } } })],
    [claim({ accessModes: ['ReadWriteOnce'] })],
    [claim({ resources: { requests: { storage: '1Gi' } } })],
    [claim({ accessModes: ['Sometimes'], resources: { requests: { storage: '1Gi' } } })],
    [claim({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '-1Gi' } } })],
    [claim({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }, 'Bad_Name')],
    [claim({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }), claim({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } })],
    [claim({ accessModes: ['ReadWriteOnce'], volumeMode: 'Sideways', resources: { requests: { storage: '1Gi' } } })],
    [claim({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, dataSource: { kind: 'VolumeSnapshot', apiGroup: 'snapshot.storage.k8s.io', name: 'snap' } })],
    [{ spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    [],
  ).map(v => ({ what: `${base} = ${JSON.stringify(v)}`, apply: (holder: any) => { holder.value = clone(v); } }));
}

/** Changes to a list of volumes (a SidecarSet's). */
export function volumesChange(base: string): fc.Arbitrary<Change> {
  return fc.tuple(fc.constantFrom(...VOLUMES), fc.constantFrom('gen-volume', 'Bad_Volume', '')).map(([source, name]) => ({
    what: `${base} += ${JSON.stringify({ name, ...source })}`,
    apply: (holder: any) => { holder.value = [...(Array.isArray(holder.value) ? holder.value : []), { name, ...clone(source) }]; },
  }));
}

/** Changes to an EphemeralJob's ephemeral containers. */
export function ephemeralContainersChange(base: string): fc.Arbitrary<Change> {
  return fc.oneof(
    fc.constantFrom(...CONTAINER_FIELDS).chain(([f, values]) => fc.constantFrom(...values).map(v => ({
      what: `${base}[0].${f} = ${JSON.stringify(v)}`,
      apply: (holder: any) => {
        if (!Array.isArray(holder.value) || holder.value.length === 0) holder.value = [{ name: 'debug', image: 'busybox:1.36' }];
        const c = holder.value[0];
        if (c && typeof c === 'object') c[f] = clone(v);
      },
    }))),
    fc.constantFrom<Change>(
      { what: `${base} = []`, apply: h => { h.value = []; } },
      { what: `${base}[0] repeated`, apply: h => { if (Array.isArray(h.value) && h.value[0]) h.value.push(clone(h.value[0])); } },
      { what: `${base}[0].targetContainerName = "web"`, apply: h => { if (Array.isArray(h.value) && h.value[0]) h.value[0].targetContainerName = 'web'; } },
    ),
  );
}

/** Changes to a batch/v1 JobTemplateSpec (an AdvancedCronJob's jobTemplate). */
export function jobTemplateChange(value: any, base: string): fc.Arbitrary<Change> {
  return fc.oneof(
    {
      weight: 5,
      arbitrary: podTemplateChange(value?.spec?.template, `${base}.spec.template`).map(c => ({
        what: c.what,
        apply: (holder: any) => {
          const v = holder.value ?? (holder.value = {});
          v.spec ??= {};
          v.spec.template ??= {};
          c.apply(v.spec.template);
        },
      })),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom<[string, unknown]>(
        ['parallelism', -1], ['parallelism', 0], ['completions', -1], ['backoffLimit', -1], ['activeDeadlineSeconds', 0], ['completionMode', 'Indexed'],
        ['completionMode', 'Bogus'], ['ttlSecondsAfterFinished', -1], ['suspend', true], ['manualSelector', true], ['podFailurePolicy', { rules: [] }],
        ['selector', { matchLabels: { app: 'x' } }],
      ).map(([f, v]) => ({ what: `${base}.spec.${f} = ${JSON.stringify(v)}`, apply: (holder: any) => { const x = holder.value ?? (holder.value = {}); x.spec ??= {}; x.spec[f] = clone(v); } })),
    },
  );
}

/** Changes to an apps/v1 DeploymentSpec or StatefulSetSpec (a UnitedDeployment's templates). */
export function workloadSpecChange(value: any, base: string, statefulSet: boolean): fc.Arbitrary<Change> {
  const labels: Record<string, string> = value?.template?.metadata?.labels ?? { app: 'web' };
  const fields: Array<[string, unknown]> = statefulSet
    ? [['podManagementPolicy', 'Parallel'], ['podManagementPolicy', 'Bogus'], ['updateStrategy', { type: 'OnDelete' }], ['updateStrategy', { type: 'Sometimes' }],
      ['updateStrategy', { type: 'RollingUpdate', rollingUpdate: { partition: -1 } }], ['serviceName', 'Bad_Name'], ['revisionHistoryLimit', -1],
      ['persistentVolumeClaimRetentionPolicy', { whenDeleted: 'Delete', whenScaled: 'Retain' }], ['persistentVolumeClaimRetentionPolicy', { whenDeleted: 'Bogus' }],
      ['ordinals', { start: 1 }], ['ordinals', { start: -1 }], ['minReadySeconds', -1]]
    : [['strategy', { type: 'Recreate' }], ['strategy', { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } }], ['strategy', { type: 'Bogus' }],
      ['progressDeadlineSeconds', 0], ['minReadySeconds', -1], ['revisionHistoryLimit', -1], ['paused', true]];
  return fc.oneof(
    {
      weight: 5,
      arbitrary: podTemplateChange(value?.template, `${base}.template`).map(c => ({
        what: c.what,
        apply: (holder: any) => { const v = holder.value ?? (holder.value = {}); v.template ??= {}; c.apply(v.template); },
      })),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(...fields, ['replicas', -1] as [string, unknown], ['replicas', 0] as [string, unknown])
        .map(([f, v]) => ({ what: `${base}.${f} = ${JSON.stringify(v)}`, apply: (holder: any) => { const x = holder.value ?? (holder.value = {}); x[f] = clone(v); } })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...selectors(labels)).map(s => ({
        what: `${base}.selector = ${JSON.stringify(s)}`, apply: (holder: any) => { const x = holder.value ?? (holder.value = {}); x.selector = clone(s); },
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...(statefulSet ? [claimTemplatesChange(`${base}.volumeClaimTemplates`)] : [podTemplateChange(value?.template, `${base}.template`)]))
        .chain(a => a).map(c => ({
          what: c.what,
          apply: (holder: any) => {
            const x = holder.value ?? (holder.value = {});
            if (statefulSet) {
              const h = { value: x.volumeClaimTemplates };
              c.apply(h);
              x.volumeClaimTemplates = h.value;
            } else {
              x.template ??= {};
              c.apply(x.template);
            }
          },
        })),
    },
  );
}

/** Changes to a free-form patch (a WorkloadSpread subset's, a UnitedDeployment subset's). */
export function patchChange(base: string): fc.Arbitrary<Change> {
  return fc.constantFrom<unknown>(
    {}, { metadata: { labels: { zone: 'a' } } }, { metadata: { annotations: { a: 'b' } } },
    { spec: { containers: [{ name: 'web', resources: { requests: { cpu: '200m' } } }] } },
    { spec: { nodeSelector: { zone: 'a' } } }, { metadata: { labels: { 'bad key': 'x' } } }, 'patch', [], { spec: 'x' },
    { spec: { replicas: 2 } },
  ).map(v => ({ what: `${base} = ${JSON.stringify(v)}`, apply: (holder: any) => { holder.value = clone(v); } }));
}
