import { readFileSync } from 'node:fs';
import path from 'node:path';
import { registry } from '@nl2p/metrics';
import { ROOT } from './render';

describe('deploy/grafana/nl2pipeline.json', () => {
  const dashboard = JSON.parse(readFileSync(path.join(ROOT, 'deploy/grafana/nl2pipeline.json'), 'utf8'));
  const exprs: string[] = dashboard.panels.flatMap((p: any) => p.targets.map((t: any) => t.expr));

  it('queries only series the services export, with labels those series have', () => {
    expect(exprs.length).toBeGreaterThan(10);
    const used = new Set<string>();
    for (const expr of exprs) {
      for (const [, name, suffix] of expr.matchAll(/\b(nl2p_[a-z_]+?)(_bucket|_count|_sum)?\b/g)) {
        const metric = registry.getSingleMetric(name);
        expect({ expr, name, defined: !!metric }).toEqual({ expr, name, defined: true });
        if (suffix) expect((metric as any).constructor.name).toBe('Histogram');
        used.add(name);
        const labels = new Set<string>([...((metric as any).labelNames ?? []), 'le', 'service']);
        for (const [, label] of expr.matchAll(/\b([a-z_]+)\s*(?:=~|!=|=)\s*"/g)) {
          expect({ expr, label, known: labels.has(label) }).toEqual({ expr, label, known: true });
        }
      }
    }
    // Every series the issue asks for is on the dashboard.
    const ours = registry.getMetricsAsArray().filter((m) => m.name.startsWith('nl2p_'));
    expect(ours.map((m) => m.name).filter((n) => !used.has(n))).toEqual([]);
  });
});
