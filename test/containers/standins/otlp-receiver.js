// Stand-in for Jaeger all-in-one (tests only): receives OTLP/HTTP traces on :4318 (JSON, what the
// services' exporter sends), answers health on :14269 and, on :16686, the two query API calls the
// container tier makes, in Jaeger's own shapes: GET /api/services and GET /api/traces/{traceID}.
const http = require('node:http');

/** traceID → its spans as Jaeger lists them, and the services that sent them. */
const traces = new Map();
const services = new Set();

// OTLP/JSON spells ids in hex; an exporter that sends base64 (the protobuf JSON mapping) is read too.
const hexId = (id, bytes) =>
  new RegExp(`^[0-9a-f]{${bytes * 2}}$`, 'i').test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');

function record(body) {
  for (const rs of JSON.parse(body.toString('utf8')).resourceSpans ?? []) {
    const attr = (rs.resource?.attributes ?? []).find((a) => a.key === 'service.name');
    const service = attr?.value?.stringValue ?? 'unknown';
    services.add(service);
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        const traceID = hexId(span.traceId, 16);
        const trace = traces.get(traceID) ?? { spans: [], services: new Set() };
        trace.spans.push({ traceID, spanID: hexId(span.spanId, 8), operationName: span.name, service });
        trace.services.add(service);
        traces.set(traceID, trace);
      }
    }
  }
}

/** Jaeger's trace shape: spans name a process, processes name a service. */
function jaegerTrace(traceID, trace) {
  const names = [...trace.services];
  const processes = Object.fromEntries(names.map((s, i) => [`p${i + 1}`, { serviceName: s, tags: [] }]));
  const spans = trace.spans.map(({ service, ...s }) => ({ ...s, processID: `p${names.indexOf(service) + 1}` }));
  return { traceID, spans, processes };
}

const json = (res, status, body) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') return res.writeHead(404).end();
      if (!(req.headers['content-type'] ?? '').includes('json')) return res.writeHead(415).end('JSON only');
      try {
        record(Buffer.concat(chunks));
        json(res, 200, {});
      } catch (err) {
        res.writeHead(400).end(String(err));
      }
    });
  })
  .listen(4318, '0.0.0.0');

http
  .createServer((req, res) => {
    if (req.url.startsWith('/api/services')) return json(res, 200, { data: [...services].sort() });
    const id = /^\/api\/traces\/([0-9a-f]{32})$/i.exec(req.url)?.[1]?.toLowerCase();
    if (id && traces.has(id)) return json(res, 200, { data: [jaegerTrace(id, traces.get(id))] });
    if (id) return json(res, 404, { data: null, errors: [{ code: 404, msg: 'trace not found' }] });
    res.writeHead(404).end();
  })
  .listen(16686, '0.0.0.0');

http.createServer((_req, res) => res.writeHead(200).end('{"status":"Server available"}')).listen(14269, '0.0.0.0');
