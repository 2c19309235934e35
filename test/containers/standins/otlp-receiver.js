// Stand-in for Jaeger all-in-one (tests only): receives OTLP/HTTP traces on :4318 (JSON or
// protobuf), answers health on :14269 and, on :16686, the one query API call the container tier
// makes: GET /api/services (the service.name of every resource that sent spans).
const http = require('node:http');

const services = new Set();
let spans = 0;

function record(body, type) {
  if (type.includes('json')) {
    for (const rs of JSON.parse(body.toString('utf8')).resourceSpans ?? []) {
      const attr = (rs.resource?.attributes ?? []).find((a) => a.key === 'service.name');
      if (attr) services.add(attr.value.stringValue);
      for (const ss of rs.scopeSpans ?? []) spans += (ss.spans ?? []).length;
    }
    return;
  }
  // Protobuf: KeyValue{key 'service.name', value AnyValue{string_value}}: 0x12 len 0x0a len <name>.
  for (let i = body.indexOf('service.name'); i >= 0; i = body.indexOf('service.name', i + 1)) {
    const at = i + 'service.name'.length;
    if (body[at] === 0x12 && body[at + 2] === 0x0a) services.add(body.toString('utf8', at + 4, at + 4 + body[at + 3]));
  }
  spans += 1;
}

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      try {
        if (req.method === 'POST' && req.url === '/v1/traces')
          record(Buffer.concat(chunks), req.headers['content-type'] ?? '');
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch (err) {
        res.writeHead(400).end(String(err));
      }
    });
  })
  .listen(4318, '0.0.0.0');

http
  .createServer((req, res) => {
    if (req.url.startsWith('/api/services')) {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: [...services].sort(), spans }));
    } else res.writeHead(404).end();
  })
  .listen(16686, '0.0.0.0');

http.createServer((_req, res) => res.writeHead(200).end('{"status":"Server available"}')).listen(14269, '0.0.0.0');
