import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ensureDemoDatabase } from '@nl2p/engine';
import { TMP_PIPELINE_PREFIX } from '@nl2p/envelope';
import { FakeManager, ROOT, SERVICES, ScriptedLlm, ServiceProcess, freePort, waitForHealth } from '@nl2p/testing';
import { LlmScript } from '../support/llm-script';
import { deletePrefix, testEnv } from '../support/stack';

/** Debian's chromium (scripts/test.sh installs it); playwright-core downloads no browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Screenshots for a person to look at (git-ignored). */
export const SHOTS = path.join(ROOT, 'reports', 'console');
export const KEY = 'console-key-0123456789abcdef';
const sha = (k: string) => createHash('sha256').update(k).digest('hex');

/** A page that collects the browser's own errors (uncaught exceptions, console errors). */
export type WatchedPage = Page & { problems: string[] };

export interface ConsoleStack {
  readonly base: string;
  readonly manager: FakeManager;
  readonly script: LlmScript;
  /** A fresh browser context on the console, past the API key form. */
  open(viewport?: { width: number; height: number }): Promise<WatchedPage>;
  /** A gateway call with the test's key, as JSON. */
  api<T>(method: string, route: string, body?: unknown): Promise<{ status: number; body: T }>;
}

/**
 * The services as separate processes (the built `dist/`, auth on), the fake Manager, the scripted
 * LLM and a headless Chromium, for a console spec; torn down after it.
 */
export function useConsoleStack(extraEnv: Record<string, string> = {}): ConsoleStack {
  const manager = new FakeManager();
  const llm = new ScriptedLlm();
  let env: Record<string, string>;
  let procs: ServiceProcess[] = [];
  let base = '';
  let browser: Browser;
  let script: LlmScript;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`no browser at ${CHROMIUM}: apt-get install chromium (scripts/test.sh does)`);
    if (!existsSync(path.join(ROOT, 'dist/console/index.html')))
      throw new Error('dist/console is missing: npm run build');
    const [managerUrl, llmUrl, port] = await Promise.all([manager.start(), llm.start(), freePort()]);
    env = testEnv({
      managerUrl,
      llmUrl,
      env: { GATEWAY_PORT: String(port), AUTH_DISABLED: 'false', API_KEYS: `acme:${sha(KEY)}`, ...extraEnv },
    });
    await ensureDemoDatabase(env.DUCKDB_PATH);
    procs = SERVICES.map((name) => new ServiceProcess(name, env));
    procs.forEach((p) => p.start());
    base = `http://127.0.0.1:${port}`;
    await waitForHealth(base, 90_000, procs);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all(procs.map((p) => p.stop()));
    await Promise.all([manager.stop(), llm.stop()]);
    if (env) await deletePrefix(env.REDIS_URL, env.REDIS_PREFIX);
  });

  beforeEach(() => {
    manager.reset();
    llm.reset();
    script = new LlmScript(llm);
  });

  afterEach(() => {
    expect(manager.pipelines().filter((id) => id.startsWith(TMP_PIPELINE_PREFIX))).toEqual([]);
  });

  async function open(viewport = { width: 1280, height: 900 }): Promise<WatchedPage> {
    const context = await browser.newContext({ viewport, acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = (await context.newPage()) as WatchedPage;
    page.problems = [];
    page.on('pageerror', (err) => page.problems.push(err.message));
    page.on('console', (m) => {
      // The browser logs every 4xx the console answered in words (a missing key, a bad target).
      if (
        m.type() === 'error' &&
        !/^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())
      ) {
        page.problems.push(m.text());
      }
    });
    await page.goto(`${base}/`);
    // Auth is on: the console asks for a key, in the gateway's words, before anything else.
    const keyForm = page.getByRole('form', { name: 'API key' });
    await keyForm.waitFor();
    expect(await keyForm.getByRole('alert').textContent()).toBe(
      'a valid API key is required (Authorization: Bearer <key>)',
    );
    await page.getByLabel('Your API key').fill(KEY);
    await page.keyboard.press('Enter');
    await page.locator('.streams summary').first().waitFor();
    return page;
  }

  async function api<T>(method: string, route: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${KEY}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  }

  return {
    get base() {
      return base;
    },
    manager,
    get script() {
      return script;
    },
    open,
    api,
  };
}
