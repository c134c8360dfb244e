import { advancedDaemonSetProblems, advancedDaemonSetWarnings, defaultAdvancedDaemonSet } from '../../src/admission/advanced-daemon-set';
import { advancedStatefulSetProblems, defaultAdvancedStatefulSet } from '../../src/admission/advanced-stateful-set';
import { cloneSetProblems, defaultCloneSet } from '../../src/admission/clone-set';

const template = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } };
const base = (spec: any = {}) => ({ metadata: { name: 'x' }, spec: { selector: { matchLabels: { app: 'x' } }, template, ...spec } });
const lines = (problems: any[]) => problems.map(p => `${p.field}: ${JSON.stringify(p.value)} ${p.problem}`);

describe('defaults are applied in memory only', () => {
  test('CloneSet D1-D8', () => {
    const input = base({ updateStrategy: { type: 'InPlaceOnly' } });
    const d = defaultCloneSet(input);
    expect(d.spec).toMatchObject({ replicas: 1, revisionHistoryLimit: 10 });
    expect(d.spec.updateStrategy).toEqual({ type: 'InPlaceOnly', inPlaceUpdateStrategy: {}, partition: 0, maxUnavailable: '20%', maxSurge: 0 });
    expect(input.spec.updateStrategy).toEqual({ type: 'InPlaceOnly' });
  });

  test('Advanced StatefulSet D1-D6', () => {
    const d = defaultAdvancedStatefulSet(base());
    expect(d.spec).toMatchObject({ podManagementPolicy: 'OrderedReady', replicas: 1, revisionHistoryLimit: 10, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' } });
    expect(d.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 } });
    expect(defaultAdvancedStatefulSet(base(), { autoDeletePvc: false }).spec.persistentVolumeClaimRetentionPolicy).toBeUndefined();
    expect(defaultAdvancedStatefulSet(base({ updateStrategy: { type: 'OnDelete' } })).spec.updateStrategy).toEqual({ type: 'OnDelete' });
  });

  test('Advanced DaemonSet D1-D6', () => {
    expect(defaultAdvancedDaemonSet(base()).spec).toMatchObject({
      burstReplicas: 250,
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 1, maxSurge: 0 } },
    });
    expect(defaultAdvancedDaemonSet(base({ updateStrategy: { rollingUpdate: { maxSurge: 1 } } })).spec.updateStrategy.rollingUpdate).toEqual({ rollingUpdateType: 'Standard', maxSurge: 1 });
  });
});

describe('CloneSet rules on the wire form', () => {
  test('accept a valid CloneSet', () => {
    expect(cloneSetProblems(base())).toEqual([]);
  });

  test('fails with a missing selector, OnDelete, a partition that is not a percentage and a forbidden activeDeadlineSeconds', () => {
    const m: any = base({ updateStrategy: { type: 'OnDelete', partition: '5' }, template: { ...template, spec: { ...template.spec, activeDeadlineSeconds: 30 } } });
    delete m.spec.selector;
    expect(lines(cloneSetProblems(m))).toEqual(expect.arrayContaining([
      'spec.selector: undefined is required',
      'spec.updateStrategy.type: "OnDelete" is not supported by the CloneSet webhook',
      'spec.updateStrategy.partition: "5" is not an integer or a percentage',
      'spec.template.spec.activeDeadlineSeconds: 30 is forbidden for a CloneSet',
    ]));
    // "is required" alone: no second line about labels that do not match a selector that is not there
    expect(lines(cloneSetProblems(m)).filter(l => l.includes('do not match'))).toEqual([]);
  });

  test('fails with both priority forms and a negative progress deadline; accepts the max-int deadline', () => {
    const ps = { weightPriority: [{ weight: 1, matchSelector: { matchLabels: { a: 'b' } } }], orderPriority: [{ orderedKey: 'k' }] };
    expect(lines(cloneSetProblems(base({ updateStrategy: { priorityStrategy: ps }, progressDeadlineSeconds: -1 })))).toEqual([
      'spec.updateStrategy.priorityStrategy: {"weightPriority":[{"weight":1,"matchSelector":{"matchLabels":{"a":"b"}}}],"orderPriority":[{"orderedKey":"k"}]} sets both weightPriority and orderPriority',
      'spec.progressDeadlineSeconds: -1 must be 0 or more',
    ]);
    expect(cloneSetProblems(base({ minReadySeconds: 10, progressDeadlineSeconds: 2147483647 }))).toEqual([]);
  });

  test('fails with a maxUnavailable or maxSurge string that is not a percentage (rules 16-17)', () => {
    // "5" is a percentage to the webhooks before 1.9 (apimachinery's GetValueFromIntOrPercent); 1.9 refuses it by a release rule (clone-set.test.ts)
    expect(lines(cloneSetProblems(base({ updateStrategy: { maxUnavailable: '5', maxSurge: 'one' } })))).toEqual([
      'spec.updateStrategy.maxSurge: "one" is not an integer or a percentage',
    ]);
  });

  test('fails with malformed image pre-download annotations', () => {
    const m: any = base();
    m.metadata.annotations = { 'apps.kruise.io/image-predownload-timeout-seconds': '0', 'apps.kruise.io/image-predownload-min-updated-ready-pods': '2.5%' };
    expect(lines(cloneSetProblems(m))).toEqual([
      'metadata.annotations["apps.kruise.io/image-predownload-timeout-seconds"]: "0" is not a positive 32-bit number of seconds: OpenKruise admits it, but falls back to 300',
      'metadata.annotations["apps.kruise.io/image-predownload-min-updated-ready-pods"]: "2.5%" is not a non-negative integer or whole percentage: OpenKruise admits it, but reads it as 0',
    ]);
  });
});

describe('Advanced StatefulSet rules on the wire form', () => {
  test('accept a valid Advanced StatefulSet', () => {
    expect(advancedStatefulSetProblems(base())).toEqual([]);
  });

  test('fails with OnDelete plus rollingUpdate, an unknown podManagementPolicy and an invalid retention value', () => {
    expect(lines(advancedStatefulSetProblems(base({
      podManagementPolicy: 'Random',
      updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' },
    })))).toEqual([
      'spec.podManagementPolicy: "Random" is not supported',
      'spec.updateStrategy.rollingUpdate: {"partition":1} is only allowed with type RollingUpdate',
      'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: "Keep" is not supported',
    ]);
  });

  test('fails with an in-place policy but no InPlaceUpdateReady readiness gate, and an unknown policy', () => {
    expect(lines(advancedStatefulSetProblems(base({ updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceOnly' } } })))).toEqual([
      'spec.template.spec.readinessGates: undefined must contain InPlaceUpdateReady with podUpdatePolicy InPlaceOnly',
    ]);
    expect(lines(advancedStatefulSetProblems(base({ updateStrategy: { type: 'Rolling', rollingUpdate: { podUpdatePolicy: 'Patch' } } })))).toEqual([
      'spec.updateStrategy.type: "Rolling" is not supported',
    ]);
    expect(lines(advancedStatefulSetProblems(base({ updateStrategy: { rollingUpdate: { podUpdatePolicy: 'Patch' } } })))).toEqual([
      'spec.updateStrategy.rollingUpdate.podUpdatePolicy: "Patch" is not supported',
    ]);
  });

  test('fails with a missing selector, a forbidden activeDeadlineSeconds and an unsupported whenScaled (rules 14, 16, 19)', () => {
    const m: any = base({
      template: { ...template, spec: { ...template.spec, activeDeadlineSeconds: 60 } },
      persistentVolumeClaimRetentionPolicy: { whenScaled: 'Keep' },
    });
    delete m.spec.selector;
    expect(lines(advancedStatefulSetProblems(m))).toEqual([
      'spec.persistentVolumeClaimRetentionPolicy.whenScaled: "Keep" is not supported',
      'spec.selector: undefined is required',
      'spec.template.spec.activeDeadlineSeconds: 60 is forbidden for an Advanced StatefulSet',
    ]);
  });

  test('fails with a reserved ordinal that is not a range', () => {
    expect(lines(advancedStatefulSetProblems(base({ reserveOrdinals: ['a-b'] })))).toEqual(['spec.reserveOrdinals[0]: "a-b" is not an ordinal range']);
  });
});

describe('Advanced DaemonSet rules on the wire form', () => {
  test('accept a valid Advanced DaemonSet', () => {
    expect(advancedDaemonSetProblems(base())).toEqual([]);
  });

  test('fails with the v1alpha1 Surging type, maxSurge beside maxUnavailable, and maxSurge with InPlaceIfPossible', () => {
    expect(lines(advancedDaemonSetProblems(base({ updateStrategy: { rollingUpdate: { rollingUpdateType: 'Surging', maxSurge: 1, maxUnavailable: 1 } } })))).toEqual([
      'spec.updateStrategy.rollingUpdate.maxSurge: 1 is not allowed with a non-zero maxUnavailable (1)',
      'spec.updateStrategy.rollingUpdate.rollingUpdateType: "Surging" is not supported by apps.kruise.io/v1beta1',
    ]);
    expect(lines(advancedDaemonSetProblems(base({ updateStrategy: { rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxSurge: '10%' } } })))).toEqual([
      'spec.updateStrategy.rollingUpdate.maxSurge: "10%" must be 0 with InPlaceIfPossible',
    ]);
  });

  test('fails with a forbidden activeDeadlineSeconds and an invalid selector key (rules 2, 7)', () => {
    const m: any = base({ selector: { matchLabels: { 'bad key': 'x' } }, template: { metadata: { labels: { 'bad key': 'x' } }, spec: { ...template.spec, activeDeadlineSeconds: 60 } } });
    expect(lines(advancedDaemonSetProblems(m))).toEqual(expect.arrayContaining([
      'spec.selector.matchLabels["bad key"]: "bad key" key name part must consist of letters, digits, \'-\', \'_\' or \'.\', starting and ending with a letter or digit',
      'spec.template.spec.activeDeadlineSeconds: 60 is forbidden for an Advanced DaemonSet',
    ]));
  });

  test('fails with a malformed string read as 0, a bad type, negative minReadySeconds and revisionHistoryLimit, a nil selector', () => {
    const m: any = base({ updateStrategy: { rollingUpdate: { maxUnavailable: 'two', maxSurge: 1 } }, minReadySeconds: -1, revisionHistoryLimit: -1 });
    expect(lines(advancedDaemonSetProblems(m))).toEqual([
      'spec.minReadySeconds: -1 must be 0 or more',
      'spec.updateStrategy.rollingUpdate.maxUnavailable: "two" is not a non-negative integer or whole percentage: OpenKruise admits it, but silently reads it as 0',
      'spec.revisionHistoryLimit: -1 must be 0 or more',
    ]);
    const t: any = base({ updateStrategy: { type: 'Replace' } });
    delete t.spec.selector;
    expect(lines(advancedDaemonSetProblems(t))).toEqual([
      'spec.template.metadata.labels: {"app":"x"} do not match spec.selector null',
      'spec.updateStrategy.type: "Replace" is not supported',
    ]);
    expect(advancedDaemonSetProblems(base({ updateStrategy: { type: 'OnDelete', rollingUpdate: {} } }))).toEqual([]);
    expect(advancedDaemonSetWarnings(base({ updateStrategy: { type: 'OnDelete', rollingUpdate: {} } }))).toEqual([
      'spec.updateStrategy.rollingUpdate: {} has no effect with type OnDelete (OpenKruise ignores it); remove it, or use type RollingUpdate',
    ]);
  });
});
