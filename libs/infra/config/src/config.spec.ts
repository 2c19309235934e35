import { ConfigError, loadConfig } from './config';

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
});
