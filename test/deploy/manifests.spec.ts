import { readFileSync } from 'node:fs';
import path from 'node:path';
import { OVERLAYS, ROOT, render, renderText, validate, type K8sObject, type Overlay } from './render';

const SERVICES = ['gateway', 'router-llm', 'sql-drafter', 'validator', 'explainer', 'janitor'];
const WORKERS = SERVICES.filter((s) => s !== 'gateway');

/** Peak RSS per service in MiB, as bench/README.md section 4 measures it (the manifests cite it). */
function benchPeakRss(service: string): number {
  const text = readFileSync(path.join(ROOT, 'deploy/k8s/base', `${service}.yaml`), 'utf8');
  const m = /peak RSS (\d+) MiB measured by the bench/.exec(text);
  if (!m) throw new Error(`${service}.yaml does not cite the bench's peak RSS`);
  return Number(m[1]);
}

const mebibytes = (q: string) => {
  const m = /^(\d+)(Mi|Gi)$/.exec(q);
  if (!m) throw new Error(`unexpected memory quantity ${q}`);
  return Number(m[1]) * (m[2] === 'Gi' ? 1024 : 1);
};

describe.each(OVERLAYS)('deploy/k8s overlay %s', (overlay: Overlay) => {
  let objects: K8sObject[];
  const of = (kind: string) => objects.filter((o) => o.kind === kind);
  const named = (kind: string, name: string) => of(kind).find((o) => o.metadata.name === name);

  beforeAll(() => {
    objects = render(overlay);
  });

  it('every rendered object validates offline against the Kubernetes and KEDA schemas', () => {
    const { lines, exitCode } = validate(renderText(overlay));
    const failures = lines.filter((l) => !l.summary && !l.ok);
    expect(failures).toEqual([]);
    expect(lines.at(-1)).toEqual({ summary: true, objects: objects.length, failed: 0 });
    expect(exitCode).toBe(0);
  });

  it('one Deployment per service, all from the one image, with probes, resources and secret references', () => {
    const deployments = of('Deployment').filter((d) => SERVICES.includes(d.metadata.name));
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([...SERVICES].sort());
    const images = new Set(deployments.map((d) => d.spec.template.spec.containers[0].image));
    expect(images.size).toBe(1);
    const secretNames = new Set<string>();
    for (const d of deployments) {
      const name = d.metadata.name;
      const c = d.spec.template.spec.containers[0];
      const env = Object.fromEntries(c.env.map((e: any) => [e.name, e]));
      expect({ name, app: env.APP?.value }).toEqual({ name, app: name });
      const port = name === 'gateway' ? 'http' : 'metrics';
      expect(c.readinessProbe.httpGet).toEqual({ path: '/health', port });
      expect(c.livenessProbe.httpGet).toEqual({ path: '/health/live', port });
      expect(c.envFrom).toEqual([{ configMapRef: { name: expect.stringMatching(/^nl2p-config/) } }]);
      // Requests cover the measured peak; the limit leaves room above it.
      const peak = benchPeakRss(name);
      expect(mebibytes(c.resources.requests.memory)).toBeGreaterThanOrEqual(peak);
      expect(mebibytes(c.resources.limits.memory)).toBeGreaterThanOrEqual(1.5 * peak);
      expect(c.resources.requests.cpu).toBeDefined();
      // Secrets only by reference; never a literal key in the Deployment.
      for (const key of ['REDIS_URL', ...(name === 'gateway' ? ['API_KEYS'] : [])]) {
        expect({ name, key, ref: env[key]?.valueFrom?.secretKeyRef?.key }).toEqual({ name, key, ref: key });
        secretNames.add(env[key].valueFrom.secretKeyRef.name);
      }
      if (name === 'router-llm' || name === 'sql-drafter') {
        expect(env.LLM_API_KEY.valueFrom.secretKeyRef.key).toBe('LLM_API_KEY');
        secretNames.add(env.LLM_API_KEY.valueFrom.secretKeyRef.name);
      }
      // The worker's grace period outlasts its in-process grace, so jobs finish or are handed back.
      const config = of('ConfigMap')[0].data ?? {};
      if (name !== 'gateway') {
        expect(d.spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(
          Number(config.SHUTDOWN_GRACE_MS),
        );
      }
    }
    expect(secretNames.size).toBe(1);
    const [secretName] = secretNames;
    // dev generates the Secret (hash-suffixed name, references rewritten); prod brings its own.
    if (overlay === 'dev') expect(named('Secret', secretName)).toBeDefined();
    else expect(of('Secret')).toEqual([]);
  });

  it('a Service and a PodDisruptionBudget per service; the ConfigMap holds no secret', () => {
    for (const s of SERVICES) {
      expect({ s, service: !!named('Service', s), pdb: named('PodDisruptionBudget', s)?.spec }).toEqual({
        s,
        service: true,
        pdb: { maxUnavailable: 1, selector: { matchLabels: { 'app.kubernetes.io/name': s } } },
      });
    }
    const config = of('ConfigMap');
    expect(config).toHaveLength(1);
    expect(Object.keys(config[0].data ?? {}).filter((k) => /KEY|SECRET|PASSWORD|TOKEN|REDIS_URL/.test(k))).toEqual([]);
    expect(config[0].data).toMatchObject({ METRICS_PORT: '9464', GATEWAY_HOST: '0.0.0.0', METRICS_HOST: '0.0.0.0' });
  });

  it('network policies: ingress denied by default, only the gateway open to outside traffic', () => {
    const policies = of('NetworkPolicy');
    const deny = policies.find((p) => p.metadata.name === 'nl2p-default-deny-ingress');
    expect(deny?.spec).toEqual({
      podSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'nl2pipeline' } },
      policyTypes: ['Ingress'],
    });
    // A rule without `from` admits any source: only the gateway's may be one.
    const openTo = policies
      .filter((p) => (p.spec.ingress ?? []).some((rule: any) => !rule.from))
      .map((p) => p.spec.podSelector.matchLabels);
    expect(openTo).toEqual([{ 'app.kubernetes.io/name': 'gateway' }]);
    // Every pod of the app (services, and in dev Redis and Jaeger) is under the default deny.
    for (const d of of('Deployment')) {
      expect(d.spec.template.metadata.labels['app.kubernetes.io/part-of']).toBe('nl2pipeline');
    }
    if (overlay === 'dev') {
      const redis = policies.find((p) => p.spec.podSelector.matchLabels['app.kubernetes.io/name'] === 'redis');
      expect(redis?.spec.ingress).toEqual([
        {
          from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'nl2pipeline' } } }],
          ports: [{ port: 6379, protocol: 'TCP' }],
        },
      ]);
    }
  });

  if (overlay === 'dev') {
    it('dev: one replica each, Redis with append-only persistence and Jaeger in the namespace', () => {
      for (const s of SERVICES)
        expect({ s, replicas: named('Deployment', s)?.spec.replicas }).toEqual({ s, replicas: 1 });
      const redisArgs = named('Deployment', 'redis')?.spec.template.spec.containers[0].args;
      expect(redisArgs).toEqual(expect.arrayContaining(['--appendonly', 'yes']));
      expect(named('Deployment', 'jaeger')).toBeDefined();
      expect(of('ConfigMap')[0].data?.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://jaeger:4318');
      expect(of('ScaledObject')).toEqual([]);
      expect(objects.every((o) => o.metadata.namespace === 'nl2pipeline-dev' || o.kind === 'Namespace')).toBe(true);
    });
  } else {
    it('prod: external Redis, replicas, KEDA on the LLM workers, HPA on CPU for the gateway', () => {
      expect(named('Deployment', 'redis')).toBeUndefined();
      for (const s of ['gateway', 'validator', 'explainer', 'janitor']) {
        expect(named('Deployment', s)?.spec.replicas).toBeGreaterThanOrEqual(2);
      }
      const scaled = of('ScaledObject').map((o) => [o.spec.scaleTargetRef.name, o.spec.triggers[0].type]);
      expect(scaled.sort()).toEqual([
        ['router-llm', 'prometheus'],
        ['sql-drafter', 'prometheus'],
      ]);
      for (const o of of('ScaledObject')) {
        // One replica per WORKER_CONCURRENCY jobs.
        expect(o.spec.triggers[0].metadata.threshold).toBe(of('ConfigMap')[0].data?.WORKER_CONCURRENCY);
        expect(named('Deployment', o.spec.scaleTargetRef.name)).toBeDefined();
      }
      const hpa = of('HorizontalPodAutoscaler');
      expect(hpa.map((h) => [h.spec.scaleTargetRef.name, h.spec.metrics[0].resource.name])).toEqual([
        ['gateway', 'cpu'],
      ]);
      expect(WORKERS.every((w) => named('Deployment', w))).toBe(true);
    });
  }
});

describe('offline schema validation', () => {
  it('fails on objects that break the Kubernetes or KEDA schema, and on kinds it has no schema for', () => {
    const broken = [
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec: {replicas: two, selector: {}, template: {}}',
      'apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: b}\nspec: {scaleTargetRef: {}, triggers: [{type: prometheus}]}',
      'apiVersion: example.com/v1\nkind: Unknown\nmetadata: {name: c}',
    ].join('\n---\n');
    const { lines, exitCode } = validate(broken);
    expect(exitCode).toBe(1);
    expect(lines.filter((l) => !l.summary).map((l) => [l.id, l.ok])).toEqual([
      ['Deployment/a', false],
      ['ScaledObject/b', false],
      ['Unknown/c', false],
    ]);
    expect(lines[0].error).toContain('replicas must be integer');
    expect(lines[1].error).toContain('scaleTargetRef must have required property name');
    expect(lines[2].error).toContain('no schema for example.com/v1 Unknown');
  });
});
