import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { KEY, SHOTS, useConsoleStack } from './console-stack';

jest.setTimeout(120_000);

const FIRST_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)";
const REVISED_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 35 GROUP BY device_id, tumblingwindow('ss', 10)";
const DUCK_SQL =
  'SELECT device_id, avg(temperature) AS avg_temp FROM sensor_readings WHERE temperature > 30 GROUP BY device_id ORDER BY device_id';

describe('web console in a real browser (Debian chromium), against the services as separate processes', () => {
  const c = useConsoleStack();
  const open = (viewport?: { width: number; height: number }) => c.open(viewport);
  let base = '';
  let script: typeof c.script;
  beforeEach(() => {
    base = c.base;
    script = c.script;
  });

  const lastTurn = (page: Page) => page.getByTestId('turn').last();

  it('a whole conversation by keyboard and buttons: clarification, stream choice with the draft streaming in (resumed with Last-Event-ID), feedback, confirm, the pipeline request', async () => {
    script
      .route({ intent: 'ask_user', stream: null, question: 'Which measurement do you mean?' })
      .route({ intent: 'nl2sql', stream: null, question: null })
      .draft({ content: FIRST_SQL, chunkDelayMs: 60 })
      .revise({ sql: REVISED_SQL, questions: [], assumptions: ['windows use processing time'] });

    const page = await open();
    // The engine's streams, from GET /v1/streams, before any session.
    expect(await page.locator('.streams summary').allTextContents()).toEqual(['sensor_stream', 'vehicle']);

    // Cut the first event stream of turn 3 (the draft) after a few events: the console must
    // resume it with Last-Event-ID and still get each event once.
    const eventRequests: Request[] = [];
    let cut = false;
    await page.route(/\/events\?turn=3$/, async (route) => {
      eventRequests.push(route.request());
      if (cut) return route.continue();
      cut = true;
      const response = await route.fetch();
      const blocks = (await response.text()).split('\n\n').filter(Boolean);
      await route.fulfill({ response, body: `${blocks.slice(0, 8).join('\n\n')}\n\n` });
    });

    // 1. A vague request, typed and sent with Enter: the workflow asks back.
    await page.getByLabel('Your request').fill('show me the hot ones');
    await page.keyboard.press('Enter');
    const question = page.getByRole('region', { name: 'The workflow asks' });
    await question.getByText('Which measurement do you mean?').waitFor();

    // 2. The answer, again from the keyboard (focus is back in the box).
    await page.getByLabel('Your answer').waitFor();
    await page.waitForFunction("document.activeElement?.id === 'ask'");
    await page.keyboard.type('average temperature per device every 10 seconds, only above 30');
    await page.keyboard.press('Enter');

    // 3. Which stream: buttons; the first has the focus, Enter picks it.
    const choices = page.getByRole('group', { name: 'Choose a stream' });
    await choices.waitFor();
    expect(await choices.getByRole('button').allTextContents()).toEqual(['sensor_stream', 'vehicle']);
    await page.waitForFunction("document.activeElement?.textContent === 'sensor_stream'");
    await page.keyboard.press('Enter');

    // 4. Validated: SQL highlighted, the engine's plan, a confirmation.
    await page.getByRole('button', { name: 'Confirm: get the pipeline request' }).waitFor();
    const sql = lastTurn(page).locator('pre.sql');
    expect(await sql.textContent()).toBe(FIRST_SQL);
    expect(await sql.locator('.hljs-keyword').allTextContents()).toEqual(
      expect.arrayContaining(['SELECT', 'FROM', 'WHERE']),
    );
    expect(await lastTurn(page).getByTestId('explain').textContent()).toContain('Logical Plan Explain:');
    // Resumed: a second request carried the last event id the console had seen, and the draft
    // put together from the streamed pieces is whole, nothing twice, nothing missing.
    expect(eventRequests.length).toBeGreaterThanOrEqual(2);
    expect(eventRequests[1].headers()['last-event-id']).toMatch(/^\d+-\d+$/);
    expect(await lastTurn(page).getByTestId('draft').textContent()).toBe(FIRST_SQL);
    // Each node once in the live list and in the timeline, although the stream was cut.
    await lastTurn(page).locator('summary', { hasText: 'Timeline' }).click();
    const timeline = await lastTurn(page).locator('.timeline .node').allTextContents();
    expect(timeline.map((t) => t.replace(/^[✓✗] /, ''))).toEqual(
      expect.arrayContaining(['ensure_active_stream', 'draft_sql', 'prevalidate', 'validate', 'explain']),
    );
    expect(timeline.filter((t) => t.endsWith('draft_sql'))).toHaveLength(1);

    // 5. Feedback instead of confirming: typed in the box, which now asks what to change.
    await page.getByLabel('What to change').fill('use 35 degrees instead');
    await page.keyboard.press('Enter');
    await lastTurn(page).locator('pre.sql', { hasText: '35' }).waitFor();
    expect(await lastTurn(page).locator('pre.sql').textContent()).toBe(REVISED_SQL);
    expect(await lastTurn(page).locator('.assumptions').textContent()).toContain('windows use processing time');

    // 6. Confirm: the pipeline request, with a working copy button.
    await page.getByRole('button', { name: 'Confirm: get the pipeline request' }).click();
    const request = lastTurn(page).getByTestId('pipeline-request');
    await lastTurn(page).getByText('accepted').waitFor();
    const shown = JSON.parse((await request.textContent()) ?? '') as Record<string, unknown>;
    expect(shown).toMatchObject({ id: 'REPLACE_ME', sql: REVISED_SQL });
    await lastTurn(page).getByRole('button', { name: 'Copy JSON' }).click();
    await lastTurn(page).getByRole('button', { name: 'Copied' }).waitFor();
    expect(JSON.parse(await page.evaluate<string>('navigator.clipboard.readText()'))).toEqual(shown);
    expect(await page.getByRole('region', { name: 'The workflow asks' }).count()).toBe(0);

    await page.screenshot({ path: path.join(SHOTS, 'conversation.png'), fullPage: true });
    expect(page.problems).toEqual([]);

    // The conversation really happened on the server, as the console showed it.
    const sessionId = (await page.locator('.session-id code').textContent()) ?? '';
    const view = (await (
      await fetch(`${base}/v1/sessions/${sessionId}`, { headers: { authorization: `Bearer ${KEY}` } })
    ).json()) as { status: string; pipeline_request: { sql: string } };
    expect(view).toMatchObject({ status: 'idle', pipeline_request: { sql: REVISED_SQL } });
    await page.context().close();
  });

  it('an SQL target at phone width: preview rows as a table with a CSV download; product errors in its own words', async () => {
    script
      .route({ intent: 'nl2sql', stream: 'sensor_readings', question: null })
      .draft({ content: DUCK_SQL, chunkDelayMs: 80 });
    const page = await open({ width: 390, height: 844 });

    // Only the targets this server has are offered, by name (PostgreSQL needs POSTGRES_URL, unset here).
    await page.getByLabel('Engine').locator('option', { hasText: 'DuckDB' }).waitFor({ state: 'attached' });
    expect(await page.getByLabel('Engine').locator('option').allTextContents()).toEqual(['veloFlux', 'DuckDB']);
    await page.getByLabel('Engine').selectOption('duckdb');
    await page.locator('.streams summary', { hasText: 'sensor_readings' }).waitFor();

    // A request the gateway refuses: its sentence, as is.
    await page.getByLabel('Your request').fill('x'.repeat(4001));
    await page.getByRole('button', { name: 'Send' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('text must be shorter than or equal to 4000 characters');

    await page.getByLabel('Your request').fill('average temperature per device above 30');
    await page.getByRole('button', { name: 'Send' }).click();
    // The draft streams in live, while the turn still runs.
    await page.getByRole('button', { name: 'Working…' }).waitFor();
    await lastTurn(page).locator('.live [data-testid="draft"]').waitFor();
    expect(await page.getByRole('button', { name: 'Working…' }).count()).toBe(1);
    const partial = (await lastTurn(page).locator('.live [data-testid="draft"]').textContent()) ?? '';
    expect(partial.length).toBeGreaterThan(0);
    expect(DUCK_SQL.startsWith(partial)).toBe(true);
    await page.getByRole('button', { name: 'Confirm this answer' }).waitFor();

    const preview = lastTurn(page).getByRole('region', { name: 'Preview rows' });
    const headers = await preview.locator('th').allTextContents();
    expect(headers).toEqual(['device_id', 'avg_temp']);
    const rows = await preview.locator('tbody tr').count();
    expect(rows).toBeGreaterThan(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      preview.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8').split('\r\n');
    expect(csv[0]).toBe('device_id,avg_temp');
    expect(csv.filter(Boolean)).toHaveLength(rows + 1);
    expect(csv[1].split(',')[0]).toBe(
      (await preview.locator('tbody tr').first().locator('td').first().textContent()) ?? '',
    );

    // Phone width: nothing scrolls sideways but the tables inside their own boxes.
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'phone-duckdb.png'), fullPage: true });
    expect(page.problems).toEqual([]);
    await page.context().close();
  });

  it('after a turn the page lands on the answer: SQL with Copy SQL, Confirm focused beside it, rounded preview with a row count, explain and timeline collapsed', async () => {
    script
      .route({ intent: 'nl2sql', stream: 'sensor_readings', question: null })
      .draft({ content: DUCK_SQL, chunkDelayMs: 5 });
    // A short laptop screen: the answer must fit above the composer without scrolling by hand.
    const page = await open({ width: 1280, height: 720 });
    await page.getByLabel('Engine').locator('option', { hasText: 'DuckDB' }).waitFor({ state: 'attached' });
    await page.getByLabel('Engine').selectOption('duckdb');
    await page.locator('.streams summary', { hasText: 'sensor_readings' }).waitFor();
    await page.getByLabel('Your request').fill('average temperature per device above 30');
    await page.keyboard.press('Enter');

    const answer = lastTurn(page).getByTestId('answer');
    const confirm = answer.getByRole('button', { name: 'Confirm this answer' });
    await confirm.waitFor();
    await page.waitForFunction("document.activeElement?.textContent === 'Confirm this answer'");
    // In view, and the thing at Confirm's centre is Confirm itself (not the composer over it).
    // Evaluated in the page as text (the tests compile without the DOM's types).
    const inView = (selector: string) =>
      page.evaluate<string>(`(() => {
        const el = [...document.querySelectorAll(${JSON.stringify(selector)})].pop();
        if (!el) return 'missing';
        const r = el.getBoundingClientRect();
        if (r.top < 0 || r.bottom > window.innerHeight) return 'outside ' + Math.round(r.top) + '..' + Math.round(r.bottom);
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit === el || el.contains(hit) ? 'visible' : 'covered by ' + (hit ? hit.tagName : 'nothing');
      })()`);
    expect(await inView('[data-testid="answer"] pre.sql')).toBe('visible');
    expect(await inView('[data-testid="answer"] .decision button.primary')).toBe('visible');
    expect(await answer.getByRole('button', { name: 'Discard' }).isVisible()).toBe(true);
    // The region that used to hold Confirm under the conversation is gone for a confirmation.
    expect(await page.getByRole('region', { name: 'The workflow asks' }).count()).toBe(0);

    await answer.getByRole('button', { name: 'Copy SQL' }).click();
    await answer.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(DUCK_SQL);

    const preview = lastTurn(page).getByRole('region', { name: 'Preview rows' });
    const rows = await preview.locator('tbody tr').count();
    expect(rows).toBeGreaterThan(0);
    expect(await preview.locator('h3').textContent()).toBe(`Preview: ${rows} row${rows === 1 ? '' : 's'}`);
    const averages = await preview.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(averages.every((a) => /^-?\d+(\.\d{1,2})?$/.test(a))).toBe(true);
    expect(averages.some((a) => a.includes('.'))).toBe(true);

    // The engine's explain and the timeline wait below, collapsed.
    const explain = lastTurn(page).locator('details', { has: page.getByTestId('explain') });
    expect(await explain.getAttribute('open')).toBeNull();
    expect(await lastTurn(page).locator('details.timeline').getAttribute('open')).toBeNull();
    // Below the answer in the page's order (the explain follows the SQL panel).
    const explainFollows = `(() => {
      const answer = [...document.querySelectorAll('[data-testid="answer"]')].pop();
      const explain = [...document.querySelectorAll('[data-testid="explain"]')].pop();
      return (answer.compareDocumentPosition(explain) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    })()`;
    expect(await page.evaluate<boolean>(explainFollows)).toBe(true);

    await page.screenshot({ path: path.join(SHOTS, 'landing-on-the-answer.png') });
    await confirm.click();
    await lastTurn(page).getByText('accepted').waitFor();
    expect(page.problems).toEqual([]);
    await page.context().close();
  });

  it('Esc stops a running turn: it ends cancelled, on the server too, and the box takes a new request', async () => {
    script
      .route({ intent: 'nl2sql', stream: 'sensor_stream', question: null })
      .draft({ content: FIRST_SQL, chunkDelayMs: 300 });
    const page = await open();
    await page.getByLabel('Your request').fill('average temperature per device every 10 seconds');
    await page.keyboard.press('Enter');
    await lastTurn(page).locator('.live [data-testid="draft"]').waitFor();
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    await page.keyboard.press('Escape');

    await lastTurn(page).getByText('Cancelled.').waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(0);
    const sessionId = (await page.locator('.session-id code').textContent()) ?? '';
    const view = (await (
      await fetch(`${base}/v1/sessions/${sessionId}`, { headers: { authorization: `Bearer ${KEY}` } })
    ).json()) as { status: string; sql: string | null };
    expect(view).toMatchObject({ status: 'cancelled', sql: null });
    expect(page.problems).toEqual([]);
    await page.context().close();
  });
});
