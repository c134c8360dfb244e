/**
 * The README and docs/ work when pasted, and every link in them leads somewhere.
 *
 * - Every ```ts block is a whole program (or, named ```ts <name>.test.ts, the
 *   test file of the program before it). All of them compile together with
 *   the project's compiler options (`cdk8s-kruise` being src/); each program
 *   runs, writes its manifests without an error or a warning, and every pod
 *   it would run could start on a small cluster: explicit CPU and memory
 *   requests under a whole CPU, and a security context its image can live
 *   with (see IMAGES). A test file's tests run against its program.
 * - ```python, ```java and ```go blocks are whole programs, in the README
 *   only: `npx projen test:languages` runs them (test/smoke/run.sh).
 * - Other blocks (sh, yaml, text, diff) are illustrations; every fence names
 *   its language.
 * - Every relative link and every GitHub link into this repository names a
 *   file that exists and, with `#anchor`, a heading of it. The README links
 *   by absolute URL only, since npm and PyPI show it outside the repository.
 * - examples/README.md is a gallery with one line per example app.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import { Block, REPO_URL, ROOT, docPages, fencedBlocks, headingAnchors, links, readPage } from './util/markdown';
import { runProgram } from './util/programs';

const PAGES = docPages();
const ALL = PAGES.flatMap(p => fencedBlocks(p));

/** The languages a fence may name. */
const ILLUSTRATIONS = ['sh', 'yaml', 'text', 'diff'];
const PROGRAMS = ['ts', 'python', 'java', 'go'];

/** A TypeScript program of the docs, with the test file that follows it, if any. */
interface Program { readonly main: Block; readonly test?: Block }

function programs(): Program[] {
  const out: Program[] = [];
  for (const b of ALL.filter(x => x.lang === 'ts')) {
    if (b.file?.endsWith('.test.ts')) {
      const last = out[out.length - 1];
      if (!last || last.main.page !== b.page || last.test) throw new Error(`${b.page}:${b.line}: a test file with no program before it`);
      out[out.length - 1] = { ...last, test: b };
    } else {
      if (b.file !== undefined && b.file !== 'main.ts') throw new Error(`${b.page}:${b.line}: a ts block is a program (main.ts) or its test (*.test.ts), not ${b.file}`);
      out.push({ main: b });
    }
  }
  return out;
}

const PROGRAM_LIST = programs();
const label = (b: Block) => `${b.page}:${b.line}`;
/** Where the compiler sees each block: a folder of its own under test/, so `./main` is its program. */
const dirOf = (p: Program) => path.join(ROOT, 'test', '.docs', `${p.main.page.replace(/[/.]/g, '-')}-line-${p.main.line}`);
const mainFile = (p: Program) => path.join(dirOf(p), 'main.ts');
const testFile = (p: Program) => path.join(dirOf(p), p.test!.file!);

describe('the code blocks of the README and docs/', () => {
  test('every fence names a language the tests know', () => {
    const unknown = ALL.filter(b => ![...ILLUSTRATIONS, ...PROGRAMS].includes(b.lang)).map(b => `${label(b)}: "${b.lang}"`);
    expect(unknown).toEqual([]);
  });

  test('there are programs on every page that describes constructs', () => {
    expect(PROGRAM_LIST.length).toBeGreaterThan(15);
    for (const page of ['README.md', 'docs/workloads.md', 'docs/batch-jobs.md', 'docs/multi-domain.md', 'docs/image-pre-pull.md',
      'docs/day-2-operations.md', 'docs/fleet-policies.md', 'docs/admission.md', 'docs/control-planes.md', 'docs/progressive-delivery.md']) {
      expect(`${page}: ${PROGRAM_LIST.filter(p => p.main.page === page).length > 0}`).toBe(`${page}: true`);
    }
  });

  test('Python, Java and Go programs are in the README only, one of each, whole', () => {
    const lang = ALL.filter(b => ['python', 'java', 'go'].includes(b.lang));
    expect(lang.map(b => `${b.page} ${b.lang}`).sort()).toEqual(['README.md go', 'README.md java', 'README.md python']);
    const whole: Record<string, RegExp[]> = {
      python: [/^import |^from /m, /^app = App\(\)$/m, /^app\.synth\(\)$/m],
      java: [/^import /m, /public static void main\(/, /app\.synth\(\);/],
      go: [/^package main$/m, /^import \(/m, /^func main\(\) \{$/m, /app\.Synth\(\)/],
    };
    for (const b of lang) for (const re of whole[b.lang]) expect(`${label(b)} ${re}: ${re.test(b.code)}`).toBe(`${label(b)} ${re}: true`);
  });
});

/** Type errors of every program and test file, compiled together in one program (the project's test tsconfig). */
function typeErrors(): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'test', 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: d => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  })!;
  const sources = new Map<string, string>();
  for (const p of PROGRAM_LIST) {
    sources.set(mainFile(p), p.main.code);
    if (p.test) sources.set(testFile(p), p.test.code);
  }
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onError) => (sources.has(name)
    ? ts.createSourceFile(name, sources.get(name)!, lang)
    : getSourceFile(name, lang, onError));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = name => sources.has(name) || fileExists(name);
  const dirs = new Set([...sources.keys()].map(f => path.dirname(f)));
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = name => dirs.has(name) || (directoryExists ? directoryExists(name) : true);
  const program = ts.createProgram([...sources.keys()], { ...config.options, noEmit: true }, host);
  const errors = new Map<string, string[]>([...sources.keys()].map(f => [f, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    if (!d.file || !sources.has(d.file.fileName)) continue;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    errors.get(d.file.fileName)!.push(`line ${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
  }
  return errors;
}

describe('every ts block compiles as written', () => {
  let errors: Map<string, string[]>;
  beforeAll(() => {
    errors = typeErrors();
  }, 180_000);
  test.each(PROGRAM_LIST.map(p => [label(p.main), p] as const))('%s', (_label, p) => {
    expect(errors.get(mainFile(p))).toEqual([]);
    if (p.test) expect(errors.get(testFile(p))).toEqual([]);
  });
});

/**
 * Images the docs run, and what they need from a pod: `user` is the image's
 * numeric non-root user (absent: the image starts as root, or as a user
 * named in letters, which the kubelet cannot check against runAsNonRoot);
 * `writes` are the paths the program writes under the default command.
 */
const IMAGES: Record<string, { readonly user?: number; readonly writes: readonly string[] }> = {
  'nginxinc/nginx-unprivileged': { user: 101, writes: ['/tmp'] },
  'registry.k8s.io/pause': { user: 65535, writes: [] },
  'busybox': { writes: [] },
  'curlimages/curl': { writes: [] },
  'redis': { writes: ['/data'] },
  'fluent/fluent-bit': { writes: [] },
};
const repository = (image: string) => image.replace(/@.*$/, '').replace(/:[^/:]*$/, '');

interface PodSpec { readonly spec: any; readonly where: string }

/** The pod templates of a manifest (workloads, jobs and the Kruise kinds that hold one). */
function podSpecs(m: any): PodSpec[] {
  const name = `${m.kind} ${m.metadata?.name}`;
  const s = m.spec ?? {};
  const out: PodSpec[] = [];
  const add = (spec: any, at: string) => spec && out.push({ spec, where: `${name} ${at}` });
  if (['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CloneSet', 'BroadcastJob'].includes(m.kind)) add(s.template?.spec, 'spec.template.spec');
  if (m.kind === 'CronJob') add(s.jobTemplate?.spec?.template?.spec, 'spec.jobTemplate.spec.template.spec');
  if (m.kind === 'AdvancedCronJob') {
    add(s.template?.jobTemplate?.spec?.template?.spec, 'spec.template.jobTemplate.spec.template.spec');
    add(s.template?.broadcastJobTemplate?.spec?.template?.spec, 'spec.template.broadcastJobTemplate.spec.template.spec');
  }
  if (m.kind === 'UnitedDeployment') {
    for (const k of Object.keys(s.template ?? {})) add(s.template[k]?.spec?.template?.spec, `spec.template.${k}.spec.template.spec`);
  }
  // a SidecarSet's containers join pods of other workloads, under their pod security context: cdk8s-plus's runAsNonRoot
  if (m.kind === 'SidecarSet') add({ containers: s.containers ?? [], initContainers: s.initContainers ?? [], securityContext: { runAsNonRoot: true } }, 'spec');
  return out;
}

/** Why a pod of the docs would not start on a small cluster, if it would not. */
function podProblems(p: PodSpec): string[] {
  const problems: string[] = [];
  const mounts = (c: any): string[] => (c.volumeMounts ?? []).map((v: any) => v.mountPath);
  for (const c of [...(p.spec.initContainers ?? []), ...(p.spec.containers ?? [])]) {
    const at = `${p.where} container "${c.name}" (${c.image})`;
    // the control planes' own images, from any registry: their tests hold them to the charts
    if (/(^|\/)openkruise\/kruise-/.test(c.image ?? '')) continue;
    const image = IMAGES[repository(c.image ?? '')];
    if (!image) {
      problems.push(`${at}: an image the docs tests do not know; add it to IMAGES with its user and the paths it writes`);
      continue;
    }
    const requests = c.resources?.requests ?? {};
    if (requests.cpu === undefined || requests.memory === undefined) problems.push(`${at}: no explicit cpu and memory requests`);
    const millis = typeof requests.cpu === 'string' && requests.cpu.endsWith('m') ? Number(requests.cpu.slice(0, -1)) : Number(requests.cpu) * 1000;
    if (millis >= 1000) problems.push(`${at}: requests ${requests.cpu} CPU; a small cluster has no room for it`);
    const sc = c.securityContext ?? {};
    const pod = p.spec.securityContext ?? {};
    const nonRoot = sc.runAsNonRoot ?? pod.runAsNonRoot ?? false;
    const user = sc.runAsUser ?? pod.runAsUser ?? image.user;
    if (nonRoot && !(typeof user === 'number' && user > 0)) problems.push(`${at}: runAsNonRoot, but the image starts as root or as a named user; set securityContext.user`);
    if (sc.readOnlyRootFilesystem) {
      for (const w of image.writes) {
        if (!mounts(c).some(m => w === m || w.startsWith(`${m}/`))) problems.push(`${at}: read-only root filesystem, but it writes ${w}; mount a volume there`);
      }
    }
  }
  return problems;
}

describe('every ts program runs, writes its manifests with no warning, and its pods could start', () => {
  test.each(PROGRAM_LIST.map(p => [label(p.main), p] as const))('%s', async (_label, p) => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-block-'));
    const cwd = process.cwd();
    const env = process.env.CDK8S_OUTDIR;
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      // relative files a block reads (KruiseInclude's manifests/shop.yaml)
      process.chdir(path.join(__dirname, 'fixtures', 'readme'));
      process.env.CDK8S_OUTDIR = outdir;
      const main = runProgram(p.main.code);
      expect(warn.mock.calls.map(c => String(c[0]))).toEqual([]);
      // a program may write into folders of the output (one per cdk8s app, as the Flux recipe does)
      const written = (fs.readdirSync(outdir, { recursive: true }) as string[]).filter(f => f.endsWith('.k8s.yaml'));
      if (/\.synth\(\)/.test(p.main.code)) expect(written.length).toBeGreaterThan(0);

      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { parseAllDocuments } = require('yaml');
      const manifests = written.flatMap(f => parseAllDocuments(fs.readFileSync(path.join(outdir, f), 'utf-8')).map((d: any) => d.toJS()));
      expect(manifests.flatMap(podSpecs).flatMap(podProblems)).toEqual([]);

      if (p.test) {
        // the test file's tests, run against the program's exports
        const tests: Array<[string, () => unknown]> = [];
        const add = (name: string, fn: () => unknown) => tests.push([name, fn]);
        runProgram(p.test.code, { './main': main }, { test: add, it: add, describe: (_n: string, fn: () => void) => fn(), expect });
        expect(tests.length).toBeGreaterThan(0);
        for (const [, fn] of tests) await fn();
      }
    } finally {
      warn.mockRestore();
      log.mockRestore();
      process.chdir(cwd);
      if (env === undefined) delete process.env.CDK8S_OUTDIR;
      else process.env.CDK8S_OUTDIR = env;
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });
});

describe('the pod check of the docs programs', () => {
  const pod = (container: any, securityContext: any = { runAsNonRoot: true }): PodSpec => ({ where: 'Deployment web spec.template.spec', spec: { containers: [container], securityContext } });
  const requests = { requests: { cpu: '100m', memory: '64Mi' } };
  test('passes a non-root image with small requests', () => {
    expect(podProblems(pod({ name: 'web', image: 'nginxinc/nginx-unprivileged:1.27', resources: requests }))).toEqual([]);
  });
  test('fails a root image under runAsNonRoot, a whole CPU, a read-only root it writes to and an unknown image', () => {
    expect(podProblems(pod({ name: 'a', image: 'redis:7.4', resources: { requests: { cpu: '1000m', memory: '512Mi' } }, securityContext: { readOnlyRootFilesystem: true } }))).toEqual([
      'Deployment web spec.template.spec container "a" (redis:7.4): requests 1000m CPU; a small cluster has no room for it',
      'Deployment web spec.template.spec container "a" (redis:7.4): runAsNonRoot, but the image starts as root or as a named user; set securityContext.user',
      'Deployment web spec.template.spec container "a" (redis:7.4): read-only root filesystem, but it writes /data; mount a volume there',
    ]);
    expect(podProblems(pod({ name: 'b', image: 'example.com/app:1', resources: requests }))).toEqual([
      'Deployment web spec.template.spec container "b" (example.com/app:1): an image the docs tests do not know; add it to IMAGES with its user and the paths it writes',
    ]);
  });
});

describe('the links of the README and docs/', () => {
  const fileOf = (page: string, target: string): { file: string; anchor?: string } | undefined => {
    const [where, anchor] = target.split('#') as [string, string | undefined];
    if (where.startsWith(REPO_URL)) {
      const rel = where.slice(REPO_URL.length).replace(/^(blob|tree)\/main\//, '');
      return { file: path.join(ROOT, rel), anchor };
    }
    if (/^[a-z]+:/i.test(where)) return undefined; // the web
    return { file: where === '' ? path.join(ROOT, page) : path.resolve(ROOT, path.dirname(page), where), anchor };
  };

  test.each(PAGES)('%s: every link into the repository names a file that exists, and a heading of it', page => {
    const broken: string[] = [];
    for (const target of links(readPage(page))) {
      const to = fileOf(page, target);
      if (!to) continue;
      if (!fs.existsSync(to.file)) {
        broken.push(`${target}: no file ${path.relative(ROOT, to.file)}`);
      } else if (to.anchor !== undefined) {
        if (!to.file.endsWith('.md')) broken.push(`${target}: an anchor into a file that is not markdown`);
        else if (!headingAnchors(fs.readFileSync(to.file, 'utf-8')).has(to.anchor)) broken.push(`${target}: no heading #${to.anchor} in ${path.relative(ROOT, to.file)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  test('the README links by absolute URL or anchor only (npm and PyPI show it outside the repository)', () => {
    const all = links(readPage('README.md'));
    expect(all.length).toBeGreaterThan(10);
    expect(all.filter(l => !/^(https?:\/\/|#)/.test(l))).toEqual([]);
  });

  test('the anchors follow GitHub: punctuation dropped, repeats numbered', () => {
    expect([...headingAnchors('# A `CloneSet`: one\n## Deploy\n## Deploy\n```sh\n# not a heading\n```\n')]).toEqual(['a-cloneset-one', 'deploy', 'deploy-1']);
  });
});

describe('examples/README.md', () => {
  const apps = fs.readdirSync(path.join(ROOT, 'examples')).filter(d => fs.existsSync(path.join(ROOT, 'examples', d, 'cdk8s.yaml'))).sort();
  const gallery = readPage('examples/README.md').split('\n').filter(l => /^\| \[`[^`]+`\]\(/.test(l));

  test('is a gallery: one line per example app, in order, each saying what it shows', () => {
    expect(gallery.map(l => /^\| \[`([^`]+)`\]/.exec(l)![1])).toEqual(apps);
    for (const l of gallery) expect(l.split('|')[2].trim().length).toBeGreaterThan(20);
  });
});

describe('the README\'s Node.js advice is what jsii does', () => {
  // the version check the jsii compiler runs (the Python, Java and Go runtimes carry the same one)
  const checkNode = require.resolve('@jsii/check-node', { paths: [path.dirname(require.resolve('jsii'))] });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { NodeRelease } = require(checkNode);
  const release = (major: number) => NodeRelease.ALL_RELEASES.find((r: any) => r.majorVersion === major);
  const row = readPage('README.md').split('\n').find(l => l.startsWith('| Node.js |'))!;

  test('the versions it recommends are ones jsii supports; 20 is past jsii\'s support since the day it names', () => {
    expect(row).toContain('**22 or 24** (LTS)');
    for (const major of [22, 24]) expect([major, release(major).supported, release(major).deprecated]).toEqual([major, true, false]);
    expect(release(20).supported).toBe(false);
    expect(row).toContain(`which jsii stopped supporting on ${release(20).endOfJsiiSupportDate.toISOString().slice(0, 10)}`);
  });

  test('the variable it names silences the banner', () => {
    const variable = /`(JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION)=20`/.exec(row)![1];
    const run = (env: NodeJS.ProcessEnv) => spawnSync(process.execPath, ['-e', `require(${JSON.stringify(checkNode)}).checkNode()`], {
      cwd: ROOT, encoding: 'utf-8', env: { PATH: process.env.PATH, ...env },
    }).stderr;
    const major = Number(process.versions.node.split('.')[0]);
    if (release(major)?.supported !== false) {
      // on a supported Node.js there is no banner to silence
      expect(run({})).not.toContain('is end-of-life');
      return;
    }
    expect(run({})).toContain(`Node ${major} is end-of-life and not supported anymore by this software`);
    expect(run({ [variable]: String(major) })).toBe('');
  });
});
