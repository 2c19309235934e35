import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export const ROOT = path.resolve(__dirname, '../..');
export const OVERLAYS = ['dev', 'prod'] as const;
export type Overlay = (typeof OVERLAYS)[number];

/** A rendered Kubernetes object (only what the tests read is typed). */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
}

/** `kustomize build` of an overlay, through the project's pinned kustomize. */
export function renderText(overlay: Overlay): string {
  return execFileSync('bash', [path.join(ROOT, 'tools/k8s/kustomize.sh'), 'build', `deploy/k8s/overlays/${overlay}`], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 16 * 1024 * 1024,
  });
}

export function render(overlay: Overlay): K8sObject[] {
  return parseAllDocuments(renderText(overlay))
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

/** Runs tools/k8s/validate.mjs (offline JSON-schema validation) over multi-document YAML. */
export function validate(yamlText: string): { lines: any[]; exitCode: number } {
  try {
    const out = execFileSync(process.execPath, [path.join(ROOT, 'tools/k8s/validate.mjs')], {
      cwd: ROOT,
      input: yamlText,
      encoding: 'utf8',
    });
    return { lines: parseLines(out), exitCode: 0 };
  } catch (err) {
    const e = err as { stdout?: string; status?: number };
    return { lines: parseLines(e.stdout ?? ''), exitCode: e.status ?? 1 };
  }
}

function parseLines(out: string): any[] {
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
