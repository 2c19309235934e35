import { ConfigError, DEFAULT_LLM_BASE_URL, assertAuthConfigured, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies defaults and per-role models', () => {
    const c = loadConfig({ LLM_MODEL: 'm', LLM_MODEL_ROUTER: 'small' });
    expect(c.llm.models).toEqual({ router: 'small', preview: 'm', reasoning: 'm' });
    expect(c.workflow.maxAttempts).toBe(3);
    expect(c.sink).toEqual({
      type: 'mqtt',
      props: { broker_url: 'tcp://127.0.0.1:1883', topic: 'nl2pipeline/output', qos: 0 },
    });
  });

  it('lists every bad key in one error', () => {
    let message = '';
    try {
      loadConfig({ REDIS_URL: 'not a url', MAX_ATTEMPTS: '0', TARGET: 'oracle' });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toContain('REDIS_URL');
    expect(message).toContain('MAX_ATTEMPTS');
    expect(message).toContain('TARGET');
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ GATEWAY_PORT: '' }).gateway.port).toBe(3000);
  });

  it('offers veloFlux only with VELOFLUX_URL or as the default target', () => {
    expect(loadConfig({}).veloflux.configured).toBe(false);
    expect(loadConfig({ VELOFLUX_URL: '' }).veloflux.configured).toBe(false);
    expect(loadConfig({ TARGET: 'veloflux' }).veloflux).toMatchObject({
      configured: true,
      url: 'http://127.0.0.1:8080',
    });
    expect(loadConfig({ VELOFLUX_URL: 'http://manager:9081' }).veloflux).toMatchObject({
      configured: true,
      url: 'http://manager:9081',
    });
  });

  it('parses API key hashes per tenant and refuses malformed entries', () => {
    const hash = 'a'.repeat(64);
    const c = loadConfig({ API_KEYS: `acme:${hash}, globex:${'B'.repeat(64)}` });
    expect(c.auth.keys.map((k) => k.tenant)).toEqual(['acme', 'globex']);
    expect(c.auth.keys[1].sha256.toString('hex')).toBe('b'.repeat(64));
    expect(() => loadConfig({ API_KEYS: 'acme:not-a-hash' })).toThrow(/API_KEYS/);
  });

  it('refuses a gateway with auth on and no key, and accepts auth explicitly off', () => {
    expect(() => assertAuthConfigured(loadConfig({}))).toThrow(/API_KEYS/);
    expect(() => assertAuthConfigured(loadConfig({ AUTH_DISABLED: 'true' }))).not.toThrow();
  });

  it('uses the embedded local model unless an OpenAI-compatible server is configured', () => {
    const none = loadConfig({});
    expect(none.llm.provider).toBe('local');
    expect(none.llm.local).toMatchObject({
      modelPath: 'models/SmolLM2-135M-Instruct.Q4_1.gguf',
      contextSize: 4096,
      maxTokens: 512,
      sequences: 1,
      constrained: true,
    });
    expect(none.llm.local.threads).toBeGreaterThanOrEqual(1);
    expect(loadConfig({ LLM_BASE_URL: '' }).llm.provider).toBe('local');

    const remote = loadConfig({ LLM_BASE_URL: 'http://llm.example:8000/v1' });
    expect(remote.llm).toMatchObject({ provider: 'openai', baseUrl: 'http://llm.example:8000/v1' });
    // Explicit choices win over the environment's hints.
    expect(loadConfig({ LLM_PROVIDER: 'openai' }).llm).toMatchObject({
      provider: 'openai',
      baseUrl: DEFAULT_LLM_BASE_URL,
    });
    expect(loadConfig({ LLM_PROVIDER: 'local', LLM_BASE_URL: 'http://x/v1' }).llm.provider).toBe('local');
    expect(loadConfig({ LOCAL_THREADS: '3', LOCAL_CONSTRAINED: 'false' }).llm.local).toMatchObject({
      threads: 3,
      constrained: false,
    });
    expect(() => loadConfig({ LLM_PROVIDER: 'ollama', LOCAL_THREADS: '0' })).toThrow(
      /LLM_PROVIDER[\s\S]*LOCAL_THREADS/,
    );
  });
});

describe('SQL_SOURCES', () => {
  it('defaults to the SQL targets, named by engine', () => {
    expect(loadConfig({}).sources.list).toEqual([{ name: 'duckdb', engine: 'duckdb', path: 'data/demo.duckdb' }]);
    const both = loadConfig({ POSTGRES_URL: 'postgres://u@h:5432/db', POSTGRES_SCHEMA: 'shop' }).sources.list;
    expect(both.map((s) => s.name)).toEqual(['duckdb', 'postgres']);
    expect(both[1]).toMatchObject({ url: 'postgres://u@h:5432/db', schema: 'shop' });
  });

  it('reads named sources with a PostgreSQL schema after #', () => {
    const c = loadConfig({
      SQL_SOURCES: 'orders=postgres:postgres://app:pw@db:5432/shop#sales, telemetry=duckdb:data/t.duckdb',
      SOURCE_ROW_LIMIT: '500',
    });
    expect(c.sources.list).toEqual([
      { name: 'orders', engine: 'postgres', url: 'postgres://app:pw@db:5432/shop', schema: 'sales' },
      { name: 'telemetry', engine: 'duckdb', path: 'data/t.duckdb' },
    ]);
    expect(c.sources.rowLimit).toBe(500);
  });

  it('gives one error per bad entry, never echoing a location', () => {
    let message = '';
    try {
      loadConfig({
        SQL_SOURCES:
          'good=duckdb:a.db,Bad=duckdb:b.db,x=oracle:o,y=postgres:http://secret@h/db,good=duckdb:c.db,z=duckdb',
      });
    } catch (err) {
      message = (err as Error).message;
    }
    const lines = message.split('\n').filter((l) => l.includes('SQL_SOURCES'));
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/entry 2: the name must be lower-case/);
    expect(lines[1]).toMatch(/entry 3 \(x\): the engine must be one of duckdb, postgres/);
    expect(lines[2]).toMatch(/entry 4 \(y\): the location must be a postgres:\/\/ URL/);
    expect(lines[3]).toMatch(/entry 5 \(good\): the name good is used twice/);
    expect(lines[4]).toMatch(/entry 6 \(z\): no location/);
    expect(message).not.toContain('secret');
  });
});
