import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './render';

const read = (file: string) => parse(readFileSync(path.join(ROOT, file), 'utf8'), { merge: true });

/** docker-compose.yml cannot be run here (no Docker daemon); what it says is checked instead. */
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
});
