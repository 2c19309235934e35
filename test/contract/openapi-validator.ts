import { z } from 'zod';

type Json = Record<string, any>;

/**
 * Checks real answers against an OpenAPI 3.1 document: the status must be one the operation
 * documents, and a JSON body must validate against the schema documented for that status (read
 * from the document, not from the gateway's own zod schemas, so the document is what is tested).
 */
export class OpenApiValidator {
  /** `METHOD template status` of every answer checked. */
  readonly seen = new Set<string>();
  private readonly defs: string;

  constructor(private readonly doc: Json) {
    this.defs = JSON.stringify(doc.components?.schemas ?? {}).replaceAll('#/components/schemas/', '#/$defs/');
  }

  /** Every `METHOD template` the document lists. */
  operations(): string[] {
    return Object.entries(this.doc.paths as Json).flatMap(([path, ops]) =>
      Object.keys(ops as Json).map((m) => `${m.toUpperCase()} ${path}`),
    );
  }

  /** The problems with one answer (none when it matches the document). */
  check(method: string, template: string, status: number, contentType: string | null, body: unknown): string[] {
    const where = `${method} ${template} → ${status}`;
    const operation = (this.doc.paths as Json)[template]?.[method.toLowerCase()] as Json | undefined;
    if (!operation) return [`${method} ${template} is not in the document`];
    this.seen.add(`${method} ${template} ${status}`);
    const response = operation.responses?.[String(status)] as Json | undefined;
    if (!response)
      return [`${where}: status not documented (documented: ${Object.keys(operation.responses).join(', ')})`];
    const media = (contentType ?? '').split(';')[0]?.trim() ?? '';
    if (!response.content) return body === '' || body === null ? [] : [`${where}: a body where none is documented`];
    const schema = response.content[media]?.schema as Json | undefined;
    if (!schema) return [`${where}: content type ${media || '(none)'} not documented`];
    if (media !== 'application/json') return [];
    const local = JSON.parse(JSON.stringify(schema).replaceAll('#/components/schemas/', '#/$defs/')) as Json;
    const parsed = z.fromJSONSchema({ $defs: JSON.parse(this.defs), ...local }).safeParse(body);
    return parsed.success
      ? []
      : parsed.error.issues.slice(0, 5).map((i) => `${where}: ${i.path.join('.') || '(body)'}: ${i.message}`);
  }
}
