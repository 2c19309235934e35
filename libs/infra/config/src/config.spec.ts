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
