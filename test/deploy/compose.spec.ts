import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './render';

const read = (file: string) => parse(readFileSync(path.join(ROOT, file), 'utf8'), { merge: true });

/**
 * What docker-compose.yml and the Dockerfile say. Running them is the container tier
 * (scripts/containers.sh, run by `npm test` unless CONTAINERS=0), which needs a Docker daemon.
 */
describe('docker-compose.yml and its Prometheus', () => {
  const compose = read('docker-compose.yml');
  const prometheus = read('deploy/prometheus/prometheus.yml');
  const services = Object.entries<any>(compose.services).filter(([, s]) => s.environment?.APP);

  it('runs the six services from one image, APP picking each', () => {
    expect(services.map(([name, s]) => [name, s.environment.APP])).toEqual(
      ['gateway', 'router-llm', 'sql-drafter', 'validator', 'explainer', 'janitor'].map((n) => [n, n]),
    );
    expect(new Set(services.map(([, s]) => s.image))).toEqual(new Set(['nl2pipeline:local']));
  });

  it('Redis with append-only persistence, Jaeger for the traces', () => {
    expect(compose.services.redis.command).toEqual(expect.arrayContaining(['--appendonly', 'yes']));
    expect(services.every(([, s]) => s.environment.OTEL_EXPORTER_OTLP_ENDPOINT === 'http://jaeger:4318')).toBe(true);
    expect(compose.services.jaeger).toBeDefined();
  });

  it("Prometheus scrapes every service's /metrics on the port it serves it", () => {
    expect(compose.services.prometheus.volumes).toContain(
      './deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
    );
    const scraped = new Map<string, number>();
    for (const job of prometheus.scrape_configs) {
      expect(job.metrics_path ?? '/metrics').toBe('/metrics');
      for (const sd of job.dns_sd_configs) for (const name of sd.names) scraped.set(name, sd.port);
    }
    for (const [name, s] of services) {
      const port = name === 'gateway' ? Number(s.environment.GATEWAY_PORT) : Number(s.environment.METRICS_PORT);
      expect({ name, port: scraped.get(name) }).toEqual({ name, port });
      if (name !== 'gateway') expect(s.environment.METRICS_HOST).toBe('0.0.0.0');
    }
  });

  it('refuses to start without API_KEYS, naming it (no unauthenticated gateway by omission)', () => {
    for (const [, s] of services) expect(s.environment.API_KEYS).toMatch(/^\$\{API_KEYS:\?set API_KEYS=/);
    expect(services.some(([, s]) => 'AUTH_DISABLED' in s.environment)).toBe(false);
  });

  it("runs the README's default: the embedded DuckDB demo and the embedded model", () => {
    for (const [, s] of services) {
      expect(s.environment.TARGET).toBe('${TARGET:-duckdb}');
      expect(s.environment.LLM_BASE_URL).toBe('${LLM_BASE_URL:-}');
      expect(s.environment.VELOFLUX_URL).toBe('${VELOFLUX_URL:-}');
      expect(s.volumes).toEqual(['${NL2P_MODELS_DIR:-./models}:/app/models:ro']);
      expect(s.environment.LOCAL_MODEL_PATH).toMatch(/^\/app\/models\/.+\.gguf$/);
    }
  });

  it('every service has a health check; ports are published on loopback only', () => {
    for (const [name, s] of Object.entries<any>(compose.services)) {
      expect({ name, test: s.healthcheck?.test?.[0] }).toEqual({ name, test: 'CMD' });
      for (const port of s.ports ?? [])
        expect({ name, port }).toEqual({ name, port: expect.stringMatching(/^127\.0\.0\.1:/) });
    }
  });

  it('the Dockerfile: non-root, the demo database baked in, only the CPU llama.cpp binary, no frontend pull', () => {
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const final = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(final).toMatch(/^USER node$/m);
    expect(final).toMatch(/COPY --from=build .* \/src\/data\/demo\.duckdb \.\/data\/demo\.duckdb/);
    expect(dockerfile).toMatch(/keep="\$\{LLAMA_BINARIES:-linux-\$\(node -p process\.arch\)\}"/);
    expect(dockerfile).not.toMatch(/^# syntax=/m);
    // The CA bundle only ever as a build secret, never copied into a layer.
    expect(dockerfile).not.toMatch(/COPY .*ca-certificates|NODE_EXTRA_CA_CERTS=\/(?!run\/secrets)/);
  });
});
