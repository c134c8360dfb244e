import { defaultedTemplateView, defaultPodTemplate, parseQuantity, podTemplateProblems, sharingTemplateViews, withTemplateViews } from '../../src/validation/pod-template';

const check = (spec: any, metadata: any = {}, claimVolumes: string[] = []) =>
  podTemplateProblems(defaultPodTemplate({ metadata, spec }), { path: 'spec.template', claimVolumes });
const fields = (spec: any, metadata?: any, claims?: string[]) => check(spec, metadata, claims).map(p => `${p.field}: ${p.problem}`);
const ok = { name: 'app', image: 'nginx:1.27' };

describe('defaultPodTemplate (TEMPLATE-DEFAULTS)', () => {
  test('applies the pod, container, probe and volume defaults to a copy', () => {
    const input = {
      spec: {
        containers: [{ name: 'a', image: 'x:1', ports: [{ containerPort: 80 }], env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }], livenessProbe: { httpGet: { port: 80 } }, lifecycle: { preStop: { httpGet: { port: 80 } } } }],
        initContainers: [{ name: 'i1', image: 'busybox' }, { name: 'i2', image: 'busybox:1.36' }, { name: 'i3', image: 'busybox:latest' }],
        volumes: [{ name: 'v' }, { name: 's', secret: { secretName: 's' } }, { name: 'h', hostPath: { path: '/x' } }, { name: 'p', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }],
      },
    };
    const t = defaultPodTemplate(input);
    expect(input.spec.containers[0]).not.toHaveProperty('imagePullPolicy');
    expect(t.spec).toMatchObject({ dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', securityContext: {}, terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler' });
    const c = t.spec.containers[0];
    expect(c.imagePullPolicy).toBe('Always');
    expect(c.terminationMessagePath).toBe('/dev/termination-log');
    expect(c.terminationMessagePolicy).toBe('File');
    expect(c.ports[0].protocol).toBe('TCP');
    expect(c.env[0].valueFrom.fieldRef.apiVersion).toBe('v1');
    expect(c.livenessProbe).toEqual({ httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(c.lifecycle.preStop.httpGet).toEqual({ port: 80, path: '/', scheme: 'HTTP' });
    expect(t.spec.initContainers.map((i: any) => i.imagePullPolicy)).toEqual(['Always', 'IfNotPresent', 'Always']);
    expect(t.spec.volumes[0].emptyDir).toEqual({});
    expect(t.spec.volumes[1].secret.defaultMode).toBe(420);
    expect(t.spec.volumes[2].hostPath.type).toBe('');
    expect(t.spec.volumes[3].projected).toEqual({ defaultMode: 420, sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 3600 } }] });
  });
});

describe('defaultedTemplateView (one defaulted copy of a template per judgement, or per sharing scope)', () => {
  const template = () => ({ spec: { containers: [{ name: 'a', image: 'x:1' }] } });

  test('a judgement reads one copy; the next judgement makes its own', () => {
    const t = template();
    const first = withTemplateViews(() => [defaultedTemplateView(t), defaultedTemplateView(t)]);
    expect(first[0]).toBe(first[1]);
    expect(first[0]).not.toBe(t);
    expect(first[0].spec.containers[0].imagePullPolicy).toBe('Always');
    expect(t.spec.containers[0]).not.toHaveProperty('imagePullPolicy');
    expect(withTemplateViews(() => defaultedTemplateView(t))).not.toBe(first[0]);
  });

  test('inside sharingTemplateViews, the judgement and the warnings after it read the same copy', () => {
    const t = template();
    const views = new WeakMap<object, Record<string, any>>();
    const judged = sharingTemplateViews(views, () => withTemplateViews(() => defaultedTemplateView(t)));
    const warned = sharingTemplateViews(views, () => defaultedTemplateView(t));
    expect(warned).toBe(judged);
    // another scope (another synth round, another file) copies again
    expect(sharingTemplateViews(new WeakMap(), () => defaultedTemplateView(t))).not.toBe(judged);
    // and outside any scope, each call is a copy of its own
    expect(defaultedTemplateView(t)).not.toBe(defaultedTemplateView(t));
  });
});

describe('pod fields that must be objects (the API server cannot decode the pod otherwise)', () => {
  test('are reported once each, with no other problem read into them', () => {
    expect(fields({
      securityContext: 'restricted',
      affinity: ['zone'],
      nodeSelector: 'disk=ssd',
      containers: [{ name: 'a', image: 'x:1', livenessProbe: 'httpGet /', readinessProbe: null, lifecycle: { preStop: 'sleep 5' }, resources: 'small', securityContext: 1, env: [{ name: 'E', valueFrom: 'metadata.name' }] }],
      volumes: [{ name: 'h', hostPath: '/var/log' }, { name: 's', secret: 'creds' }],
    })).toEqual([
      'spec.template.spec.securityContext: is not an object, so the API server cannot decode the pod',
      'spec.template.spec.affinity: is not an object, so the API server cannot decode the pod',
      'spec.template.spec.nodeSelector: is not an object, so the API server cannot decode the pod',
      'spec.template.spec.containers[0].livenessProbe: is not an object, so the API server cannot decode the pod',
      'spec.template.spec.containers[0].resources: is not an object, so the API server cannot decode the pod',
      'spec.template.spec.containers[0].securityContext: is not an object, so the API server cannot decode the pod',
      'spec.template.spec.containers[0].lifecycle.preStop: is not an object, so the API server cannot decode the pod',
      'spec.template.spec.containers[0].env[0].valueFrom: is not an object, so the API server cannot decode the pod',
      'spec.template.spec.volumes[0].hostPath: is not an object, so the API server cannot decode the pod',
      'spec.template.spec.volumes[1].secret: is not an object, so the API server cannot decode the pod',
    ]);
  });

  test('a pod spec that is not an object is one problem, and the defaults leave it alone', () => {
    expect(podTemplateProblems(defaultPodTemplate({ spec: 'web' }), { path: 'spec.template' }).map(p => `${p.field}: ${p.problem}; ${p.fix}`))
      .toEqual(['spec.template.spec: is not an object, so the API server cannot decode the pod; give the pod spec as an object']);
    expect(defaultPodTemplate({ spec: 'web' })).toEqual({ spec: 'web' });
  });
});

describe('items of a list that also holds non-objects', () => {
  test('are named by their place in the list; the non-objects are reported once', () => {
    expect(fields({
      containers: ['web', { name: 'b', image: 'x:1', ports: [null, { containerPort: 0 }] }],
      volumes: [7, { name: 'Bad_Name', emptyDir: {} }],
      tolerations: [null, { operator: 'Sideways' }],
      ephemeralContainers: [null],
    })).toEqual(expect.arrayContaining([
      'spec.template.spec.containers[0]: is not an object, so the API server cannot decode the pod',
      'spec.template.spec.containers[1].ports[0]: is not an object, so the API server cannot decode the pod',
      'spec.template.spec.containers[1].ports[1].containerPort: is not a valid port number',
      'spec.template.spec.volumes[1].name: must consist of lowercase letters, digits and \'-\', starting and ending with a letter or digit',
      'spec.template.spec.tolerations[1].operator: is not supported',
      'spec.template.spec.ephemeralContainers: are not allowed in a pod template',
    ]));
  });
});

describe('parseQuantity', () => {
  test('reads Kubernetes quantities', () => {
    expect(parseQuantity('500m')).toBe(0.5);
    expect(parseQuantity('1Gi')).toBe(2 ** 30);
    expect(parseQuantity('2k')).toBe(2000);
    expect(parseQuantity('1e3')).toBe(1000);
    expect(parseQuantity(3)).toBe(3);
    expect(parseQuantity('1.0001')).toBe(1.001);
    expect(parseQuantity('ten')).toBeUndefined();
    expect(parseQuantity({})).toBeUndefined();
  });
});

describe('podTemplateProblems (POD-TEMPLATE-VALID)', () => {
  test('accepts a minimal template', () => {
    expect(check({ containers: [ok] })).toEqual([]);
  });

  test('fails on template metadata', () => {
    expect(fields({ containers: [ok] }, { labels: { 'a b': 'x' }, annotations: { 'x/y/z': 'v' } })).toEqual([
      'spec.template.metadata.labels["a b"]: key name part must consist of letters, digits, \'-\', \'_\' or \'.\', starting and ending with a letter or digit',
      'spec.template.metadata.annotations["x/y/z"]: key must be a name with at most one \'/\' (an optional DNS subdomain prefix and a name)',
    ]);
  });

  test('fails on containers: names, images, policies, ports', () => {
    const problems = fields({
      hostNetwork: true,
      containers: [
        { name: 'a', image: '', imagePullPolicy: 'Sometimes', terminationMessagePolicy: 'X', restartPolicy: 'Always', ports: [{ containerPort: 0 }, { containerPort: 80, hostPort: 81, protocol: 'HTTP', name: 'web' }, { containerPort: 90, name: 'web' }] },
        { name: 'a', image: 'x', ports: [{ containerPort: 90 }] },
      ],
      initContainers: [{ name: 'init', image: 'x', restartPolicy: 'OnFailure', livenessProbe: { exec: { command: ['true'] } }, lifecycle: { postStart: { exec: { command: ['x'] } } } }],
      ephemeralContainers: [{ name: 'dbg', image: 'x' }],
    });
    expect(problems).toEqual(expect.arrayContaining([
      'spec.template.spec.initContainers[0].restartPolicy: is not supported',
      'spec.template.spec.initContainers[0].livenessProbe: is not allowed on an init container',
      'spec.template.spec.initContainers[0].lifecycle: is not allowed on an init container',
      'spec.template.spec.containers[0].image: is required',
      'spec.template.spec.containers[0].imagePullPolicy: is not supported',
      'spec.template.spec.containers[0].terminationMessagePolicy: is not supported',
      'spec.template.spec.containers[0].restartPolicy: is only allowed on init containers',
      'spec.template.spec.containers[0].ports[0].containerPort: is not a valid port number',
      'spec.template.spec.containers[0].ports[1].hostPort: must equal containerPort (80) with hostNetwork',
      'spec.template.spec.containers[0].ports[1].protocol: is not supported',
      'spec.template.spec.containers[0].ports[2].name: is used by another port of this container',
      'spec.template.spec.containers[1].name: is also the name of spec.template.spec.containers[0]',
      'spec.template.spec.containers[1].ports[0].hostPort: is already used by spec.template.spec.containers[0].ports[2]',
      'spec.template.spec.ephemeralContainers: are not allowed in a pod template',
    ]));
  });

  test('fails on env, envFrom, mounts, devices and resources', () => {
    const problems = fields({
      volumes: [{ name: 'cfg', configMap: {} }, { name: 'cfg', emptyDir: {} }, { name: 'two', emptyDir: {}, hostPath: { path: '/' } }],
      containers: [{
        name: 'a',
        image: 'x',
        env: [
          { name: '1X', value: 'v' },
          { name: 'A', value: 'v', valueFrom: { fieldRef: { fieldPath: 'metadata.labels' } } },
          { name: 'B', valueFrom: { configMapKeyRef: { key: 'bad key' }, secretKeyRef: { name: 's', key: 'k' } } },
          { name: 'C', valueFrom: { resourceFieldRef: { resource: 'limits.gpu' } } },
        ],
        envFrom: [{ prefix: '9' }],
        volumeMounts: [{ name: 'missing', mountPath: '/a' }, { name: 'cfg', mountPath: '/a', subPath: '../x' }, { name: 'data', mountPath: '/d', subPath: '/abs' }],
        volumeDevices: [{ name: 'cfg', devicePath: '/dev/x' }],
        resources: { requests: { cpu: '2', memory: 'lots', gpu: '1' }, limits: { cpu: '1' } },
      }],
    }, {}, ['data']);
    expect(problems).toEqual(expect.arrayContaining([
      'spec.template.spec.volumes[0].configMap.name: is required',
      'spec.template.spec.volumes[1].name: is used by another volume of the pod',
      'spec.template.spec.volumes[2]: sets more than one volume source',
      'spec.template.spec.containers[0].env[0].name: must consist of letters, digits, \'_\', \'-\' or \'.\', and must not start with a digit',
      'spec.template.spec.containers[0].env[1].valueFrom: may not be combined with a non-empty value',
      'spec.template.spec.containers[0].env[1].valueFrom.fieldRef.fieldPath: is not a supported field path',
      'spec.template.spec.containers[0].env[2].valueFrom: sets more than one source',
      'spec.template.spec.containers[0].env[2].valueFrom.configMapKeyRef.name: is required',
      'spec.template.spec.containers[0].env[2].valueFrom.configMapKeyRef.key: is not a valid key',
      'spec.template.spec.containers[0].env[3].valueFrom.resourceFieldRef.resource: is not a supported resource',
      'spec.template.spec.containers[0].envFrom[0]: has no source',
      'spec.template.spec.containers[0].envFrom[0].prefix: must consist of letters, digits, \'_\', \'-\' or \'.\', and must not start with a digit',
      'spec.template.spec.containers[0].volumeMounts[0].name: names no volume of the pod',
      'spec.template.spec.containers[0].volumeMounts[1].mountPath: is used by another mount of this container',
      'spec.template.spec.containers[0].volumeMounts[1].subPath: must not contain \'..\'',
      'spec.template.spec.containers[0].volumeMounts[2].subPath: must be a relative path',
      'spec.template.spec.containers[0].volumeDevices[0].name: names no persistentVolumeClaim volume of the pod',
      'spec.template.spec.containers[0].volumeDevices[0].name: is also mounted as a filesystem by this container',
      'spec.template.spec.containers[0].resources.requests["memory"]: is not a valid quantity',
      'spec.template.spec.containers[0].resources.requests["gpu"]: is not a valid resource name',
      'spec.template.spec.containers[0].resources.requests["cpu"]: is greater than the limit "1"',
    ]));
    // a mount of a claim template volume is fine
    expect(problems.some(p => p.startsWith('spec.template.spec.containers[0].volumeMounts[2].name'))).toBe(false);
  });

  test('fails on probes and lifecycle handlers', () => {
    const problems = fields({
      containers: [{
        name: 'a',
        image: 'x',
        ports: [{ containerPort: 80, name: 'http' }],
        livenessProbe: { successThreshold: 2, periodSeconds: -1 },
        readinessProbe: { httpGet: { port: 'metrics' }, tcpSocket: { port: 80 }, terminationGracePeriodSeconds: 5 },
        startupProbe: { grpc: { port: 0 } },
        lifecycle: { preStop: { sleep: { seconds: -1 }, exec: { command: ['drain'] }, httpGet: { port: 80 } }, postStart: { exec: { command: [] } } },
      }],
    });
    expect(problems).toEqual(expect.arrayContaining([
      'spec.template.spec.containers[0].livenessProbe: has no handler',
      'spec.template.spec.containers[0].livenessProbe.periodSeconds: must be non-negative',
      'spec.template.spec.containers[0].livenessProbe.successThreshold: must be 1 for a liveness probe',
      'spec.template.spec.containers[0].readinessProbe: sets more than one handler',
      'spec.template.spec.containers[0].readinessProbe.httpGet.port: names no port of the container: the API server admits it, but the kubelet finds no such port and the handler fails on every pod',
      'spec.template.spec.containers[0].readinessProbe.terminationGracePeriodSeconds: is not allowed on a readiness probe',
      'spec.template.spec.containers[0].startupProbe.grpc.port: is not a valid port number',
      'spec.template.spec.containers[0].lifecycle.postStart.exec.command: is empty',
      // a sleep action is judged by the releases that have it (test/admission/releases.test.ts)
      'spec.template.spec.containers[0].lifecycle.preStop: sets more than one handler',
    ]));
  });

  test('fails on pod-level fields', () => {
    const problems = fields({
      containers: [{ ...ok, securityContext: { runAsUser: -1, privileged: true, allowPrivilegeEscalation: false } }],
      restartPolicy: 'Sometimes',
      dnsPolicy: 'None',
      activeDeadlineSeconds: 0,
      terminationGracePeriodSeconds: -1,
      serviceAccountName: 'Bad_SA',
      hostname: 'a.b',
      imagePullSecrets: [{}],
      nodeSelector: { 'k k': 'v' },
      tolerations: [{ operator: 'Equal', value: 'x' }, { key: 'k', operator: 'Exists', value: 'v', tolerationSeconds: 5, effect: 'NoSchedule' }, { key: 'k', effect: 'Never' }],
      topologySpreadConstraints: [{ maxSkew: 0, topologyKey: '', whenUnsatisfiable: 'Maybe', minDomains: 2 }],
      readinessGates: [{ conditionType: '' }],
      hostAliases: [{ ip: 'nope', hostnames: ['Bad_Host'] }],
      securityContext: { fsGroup: -5, supplementalGroups: [-1], sysctls: [{ name: 'Bad Name' }] },
    });
    expect(problems).toEqual(expect.arrayContaining([
      'spec.template.spec.containers[0].securityContext.runAsUser: must be between 0 and 2147483647',
      'spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation: cannot be false when privileged is true',
      'spec.template.spec.restartPolicy: is not supported',
      'spec.template.spec.dnsConfig: is required when dnsPolicy is None',
      'spec.template.spec.activeDeadlineSeconds: must be at least 1',

      'spec.template.spec.serviceAccountName: must consist of lowercase letters, digits, \'-\' and \'.\', starting and ending with a letter or digit',
      'spec.template.spec.hostname: must consist of lowercase letters, digits and \'-\', starting and ending with a letter or digit',
      'spec.template.spec.nodeSelector["k k"]: key name part must consist of letters, digits, \'-\', \'_\' or \'.\', starting and ending with a letter or digit',
      'spec.template.spec.tolerations[0].operator: must be Exists when key is empty',
      'spec.template.spec.tolerations[1].value: must be empty when operator is Exists',
      'spec.template.spec.tolerations[1].tolerationSeconds: only applies to the NoExecute effect',
      'spec.template.spec.tolerations[2].effect: is not supported',
      'spec.template.spec.topologySpreadConstraints[0].maxSkew: must be greater than 0',
      'spec.template.spec.topologySpreadConstraints[0].topologyKey: is required',
      'spec.template.spec.topologySpreadConstraints[0].whenUnsatisfiable: is not supported',
      'spec.template.spec.topologySpreadConstraints[0].minDomains: only applies with whenUnsatisfiable DoNotSchedule',
      'spec.template.spec.readinessGates[0].conditionType: has an empty name',
      'spec.template.spec.hostAliases[0].ip: is not a valid IP address',
      'spec.template.spec.hostAliases[0].hostnames[0]: must consist of lowercase letters, digits, \'-\' and \'.\', starting and ending with a letter or digit',
      'spec.template.spec.securityContext.fsGroup: must be between 0 and 2147483647',
      'spec.template.spec.securityContext.supplementalGroups[0]: must be between 0 and 2147483647',
      'spec.template.spec.securityContext.sysctls[0].name: is not a valid sysctl name',
    ]));
  });

  test('every problem carries the value and a fix', () => {
    const [p] = check({ containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 99999 }] }] });
    expect(p).toEqual({ field: 'spec.template.spec.containers[0].ports[0].containerPort', value: 99999, problem: 'is not a valid port number', fix: 'use a port between 1 and 65535' });
  });
});

describe('core rules of Kubernetes 1.28 to 1.32 the OpenKruise webhooks run on a template', () => {
  test('a host path: no ".." step, a type of the list (validateHostPathVolumeSource)', () => {
    expect(fields({
      containers: [ok],
      volumes: [
        { name: 'a', hostPath: { path: '/var/../etc' } },
        { name: 'b', hostPath: { path: '/var/log', type: 'Folder' } },
        { name: 'c', hostPath: { path: '/var/..log', type: 'DirectoryOrCreate' } },
      ],
    })).toEqual([
      'spec.template.spec.volumes[0].hostPath.path: must not contain \'..\'',
      'spec.template.spec.volumes[1].hostPath.type: is not a host path type',
    ]);
  });

  test('node affinity: at least one required term, operators with their values, weights from 1 to 100, metadata.name fields', () => {
    const R = 'spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution';
    const term0 = `${R}.nodeSelectorTerms[0]`;
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{
            matchExpressions: [{ key: 'zone', operator: 'In' }, { key: 'gpu', operator: 'Exists', values: ['x'] }, { key: 'cores', operator: 'Gt', values: ['1', '2'] }, { key: 'bad key', operator: 'Near' }],
            matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }, { key: 'spec.podCIDR', operator: 'Exists' }],
          }],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: {} }, { weight: 100, preference: { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] } }],
      },
    };
    expect(fields({ containers: [ok], affinity })).toEqual([
      `${term0}.matchExpressions[0].values: must list at least one value for operator In`,
      `${term0}.matchExpressions[1].values: must be empty for operator Exists`,
      `${term0}.matchExpressions[2].values: must list exactly one value for operator Gt`,
      `${term0}.matchExpressions[3].operator: is not a node selector operator`,
      expect.stringMatching(/\.nodeSelectorTerms\[0\]\.matchExpressions\[3\]\.key: /),
      `${term0}.matchFields[1].operator: is not an operator of a node field selector`,
      `${term0}.matchFields[1].key: is not a node field selector key`,
      'spec.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: is not in the range 1-100',
    ]);
    const none = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } };
    expect(fields({ containers: [ok], affinity: none })).toEqual([
      `${R}.nodeSelectorTerms: must list at least one node selector term`,
    ]);
  });

  test('pod (anti-)affinity: a topology key, selector keys and operators; any label value (AllowInvalidLabelValueInSelector)', () => {
    const term = (t: any) => ({ podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [t] } });
    expect(fields({ containers: [ok], affinity: term({ labelSelector: { matchLabels: { app: 'not a label value!' } }, topologyKey: 'kubernetes.io/hostname' }) })).toEqual([]);
    expect(fields({ containers: [ok], affinity: term({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'Near' }] }, namespaces: ['Bad_NS'] }) })).toEqual([
      'spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].operator: must be one of In, NotIn, Exists, DoesNotExist',
      expect.stringMatching(/^spec\.template\.spec\.affinity\.podAntiAffinity\.requiredDuringSchedulingIgnoredDuringExecution\[0\]\.namespaces\[0\]: /),
      'spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: is required',
    ]);
  });

  test('a spread constraint\'s matchLabelKeys: only beside a labelSelector, and none of its keys', () => {
    const spread = (t: any) => ({ containers: [ok], topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', ...t }] });
    expect(fields(spread({ matchLabelKeys: ['pod-template-hash'] }))).toEqual([
      'spec.template.spec.topologySpreadConstraints[0].matchLabelKeys: must not be set when labelSelector is not',
    ]);
    expect(fields(spread({ labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['app', 'pod-template-hash'] }))).toEqual([
      'spec.template.spec.topologySpreadConstraints[0].matchLabelKeys[0]: is a key of the labelSelector too',
    ]);
  });

  test('a container\'s resource claims name the pod\'s, once (validateResourceClaimNames)', () => {
    const withClaims = (claims: any[], resourceClaims?: any[]) => ({ containers: [ok], initContainers: [{ name: 'init', image: 'busybox:1.36', resources: { claims } }], resourceClaims });
    expect(fields(withClaims([{ name: 'gpu' }]))).toEqual([
      'spec.template.spec.initContainers[0].resources.claims[0].name: is not the name of an entry of the pod\'s resourceClaims (it has none)',
    ]);
    expect(fields(withClaims([{ name: 'gpu' }, { name: 'gpu' }], [{ name: 'gpu', resourceClaimName: 'gpu-claim' }]))).toEqual([
      'spec.template.spec.initContainers[0].resources.claims[1].name: is listed twice',
    ]);
  });
});
