// Validates rendered Kubernetes manifests (multi-document YAML on stdin, e.g. `kustomize build`)
// offline against the JSON schemas that npm's kubernetes-models (Kubernetes' own OpenAPI) and
// @kubernetes-models/keda (KEDA's CRDs) ship. Prints one JSON line per object, then a summary;
// exits 1 when any object fails or has no schema here.
//   tools/k8s/kustomize.sh build deploy/k8s/overlays/prod | node tools/k8s/validate.mjs
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

/** The module holding the model of `apiVersion`/`kind`, in the packages this script trusts. */
function modelModules(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : [null, apiVersion];
  if (group && group.endsWith('keda.sh')) return [`@kubernetes-models/keda/${group}/${version}/${kind}`];
  return [group ? `kubernetes-models/${group}/${version}/${kind}` : `kubernetes-models/${version}/${kind}`];
}

async function validateObject(obj) {
  const id = `${obj?.kind}/${obj?.metadata?.name}`;
  if (!obj || typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') {
    return { id, ok: false, error: 'not a Kubernetes object (apiVersion and kind required)' };
  }
  for (const mod of modelModules(obj.apiVersion, obj.kind)) {
    let Model;
    try {
      Model = (await import(mod))[obj.kind];
    } catch {
      continue;
    }
    if (!Model) continue;
    try {
      new Model(obj).validate();
      return { id, apiVersion: obj.apiVersion, ok: true };
    } catch (err) {
      return { id, apiVersion: obj.apiVersion, ok: false, error: err.message };
    }
  }
  return { id, apiVersion: obj.apiVersion, ok: false, error: `no schema for ${obj.apiVersion} ${obj.kind}` };
}

const docs = parseAllDocuments(readFileSync(0, 'utf8'));
const results = [];
for (const doc of docs) {
  if (doc.errors.length) {
    results.push({ id: '?', ok: false, error: doc.errors.map((e) => e.message).join('; ') });
    continue;
  }
  const obj = doc.toJS();
  if (obj === null) continue;
  results.push(await validateObject(obj));
}
for (const r of results) console.log(JSON.stringify(r));
const failed = results.filter((r) => !r.ok).length;
console.log(JSON.stringify({ summary: true, objects: results.length, failed }));
process.exit(failed || !results.length ? 1 : 0);
