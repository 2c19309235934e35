import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string } | undefined;
}

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
};
type OtlpAttr = { key: string; value: OtlpValue };

function plain(v: OtlpValue): unknown {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(plain);
  return undefined;
}

function attrs(list: OtlpAttr[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, plain(a.value)]));
}

/** A real OTLP/HTTP (JSON) trace receiver: what a collector or Jaeger would get. */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly rawBodies: string[] = [];
  private server: http.Server | undefined;

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        if (req.method === 'POST' && req.url === '/v1/traces') {
          this.rawBodies.push(body);
          this.ingest(JSON.parse(body));
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private ingest(body: any): void {
    for (const rs of body.resourceSpans ?? []) {
      const name = attrs(rs.resource?.attributes)['service.name'];
      const service = typeof name === 'string' ? name : '';
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          this.spans.push({
            service,
            traceId: s.traceId,
            spanId: s.spanId,
            parentSpanId: s.parentSpanId || undefined,
            name: s.name,
            attributes: attrs(s.attributes),
            status: s.status,
          });
        }
      }
    }
  }
}
