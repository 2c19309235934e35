import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { SHOTS, useConsoleStack, type WatchedPage } from './console-stack';

jest.setTimeout(180_000);

const HOURLY =
  "SELECT date_trunc('hour', ts) AS hour, avg(temperature) AS avg_temp FROM sensor_readings GROUP BY hour ORDER BY hour";
const HOTTEST =
  'SELECT device_id, max(temperature) AS hottest FROM sensor_readings GROUP BY device_id ORDER BY device_id';
const EVERY_READING = 'SELECT ts, device_id, temperature FROM sensor_readings ORDER BY ts, device_id';
const ONE_NUMBER = 'SELECT count(*) AS readings FROM sensor_readings';

/**
 * What a person does with an answer, in a real browser against the services as processes, on the
 * embedded DuckDB with plan mode trusting conclusive readings (no model drafts these requests):
 * the plan read as sentences, Confirm worded for a read-only answer, the SQL edited in the code
 * editor and checked again (valid, invalid, forbidden), a run beyond the preview with the server's
 * row cap, pages and CSV, a chart for a time series and none for a single number, the sessions.
 */
describe('the answer in the web console: plan, edited SQL, runs, charts, sessions (Debian chromium)', () => {
  const c = useConsoleStack({
    DRAFT_MODE: 'plan',
    LINKING: 'true',
    PLAN_TRUST_LINKS: 'true',
    RUN_ROWS_MAX: '100',
  });
  const lastTurn = (page: Page) => page.getByTestId('turn').last();

  async function askOnDuckDb(page: Page, request: string): Promise<void> {
    await page.getByLabel('Engine').locator('option', { hasText: 'DuckDB' }).waitFor({ state: 'attached' });
    await page.getByLabel('Engine').selectOption('duckdb');
    await page.locator('.streams summary', { hasText: 'sensor_readings' }).waitFor();
    await page.getByLabel('Your request').fill(request);
    await page.keyboard.press('Enter');
    await lastTurn(page).locator('.result').waitFor();
    if (!(await lastTurn(page).getByTestId('answer').count())) {
      throw new Error(`no answer: ${await lastTurn(page).textContent()} ${(page as WatchedPage).problems.join('; ')}`);
    }
  }

  /** Opens the editor on the latest answer, replaces its text, and sends it to be checked. */
  async function editSql(page: Page, sql: string, typed = false): Promise<void> {
    const turns = await page.getByTestId('turn').count();
    await lastTurn(page).getByRole('button', { name: 'Edit SQL' }).click();
    const editor = lastTurn(page).getByLabel('Edit the SQL');
    await editor.waitFor();
    await page.waitForFunction("document.activeElement?.classList.contains('cm-content')");
    await page.keyboard.press('ControlOrMeta+A');
    if (typed) await page.keyboard.type(sql);
    else await page.keyboard.insertText(sql);
    expect(await editor.textContent()).toBe(sql);
    await lastTurn(page).getByRole('button', { name: 'Check this SQL' }).click();
    await page.getByTestId('turn').nth(turns).locator('.result').waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();
  }

  /** Whether the last chart's canvas has anything drawn on it, waited for up to 5 s (it draws once sized). */
  async function chartDrawn(page: Page): Promise<boolean> {
    const painted = `(() => {
      const canvas = [...document.querySelectorAll('[data-testid="chart"] canvas')].pop();
      if (!canvas || !canvas.width || !canvas.height) return false;
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) return true;
      return false;
    })()`;
    for (const deadline = Date.now() + 5_000; Date.now() < deadline; await page.waitForTimeout(100)) {
      if (await page.evaluate<boolean>(painted)) return true;
    }
    return false;
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
  const noProblems = (page: WatchedPage) => expect(page.problems).toEqual([]);

  it('reads the plan as sentences, words Confirm for a read-only answer, and re-checks edited SQL: valid, invalid, forbidden', async () => {
    const page = await c.open();
    await askOnDuckDb(page, 'average temperature per device');
    const answer = lastTurn(page).getByTestId('answer');
    // Nothing is deployed on a database: the button and the question say so.
    const confirm = answer.getByRole('button', { name: 'Confirm this answer' });
    await confirm.waitFor();
    expect(await answer.locator('.decision .question').textContent()).toMatch(
      /read-only.*nothing is changed or deployed/,
    );
    expect(await answer.getByText('pipeline request').count()).toBe(0);
    // No model wrote this draft (the plan was compiled): nothing claims one did.
    expect(await lastTurn(page).getByText('Draft as the model wrote it').count()).toBe(0);

    // The plan as a small table of sentences; its JSON only behind a toggle.
    const outline = lastTurn(page).getByTestId('plan-outline');
    const lines = (await outline.locator('tr').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(lines).toEqual(expect.arrayContaining(['Readssensor_readings', 'For eachdevice_id']));
    expect(lines.some((l) => /^Shows.*average temperature/.test(l))).toBe(true);
    expect(
      await lastTurn(page).locator('details', { hasText: 'The plan as JSON' }).last().getAttribute('open'),
    ).toBeNull();
    await shot(page, 'plan-and-confirm-duckdb.png');

    // A valid edit, typed in the code editor: highlighted as SQL, checked, previewed as the new answer.
    await lastTurn(page).getByRole('button', { name: 'Edit SQL' }).click();
    await lastTurn(page).locator('.cm-editor').waitFor();
    expect(await lastTurn(page).locator('.cm-line span').count()).toBeGreaterThan(3);
    await lastTurn(page).getByRole('button', { name: 'Cancel' }).click();
    await editSql(page, HOTTEST, true);
    expect(await lastTurn(page).locator('.said').first().textContent()).toContain(`Check my SQL: ${HOTTEST}`);
    expect(await lastTurn(page).locator('pre.sql').textContent()).toBe(HOTTEST);
    expect(await lastTurn(page).getByRole('region', { name: 'Preview rows' }).locator('th').allTextContents()).toEqual([
      'device_id',
      'hottest',
    ]);
    await lastTurn(page).getByRole('button', { name: 'Confirm this answer' }).waitFor();
    // The person's SQL has no plan: none is shown as its reading.
    expect(await lastTurn(page).getByTestId('plan-outline').count()).toBe(0);
    await shot(page, 'edited-sql-valid.png');

    // An invalid edit: the check's own words, once, and no model repairing it behind the person's back.
    await editSql(page, 'SELECT device_id, avg(pressure) AS p FROM sensor_readings GROUP BY device_id');
    // Said once on the page: in the panel that waits for the next step, not again in the turn.
    const refusal = page.getByText(/^(Your SQL did not pass the check|The engine refused your SQL): /);
    await refusal.waitFor();
    expect(await page.getByText('Edit it again, or ask in words.').count()).toBe(1);
    expect(await refusal.textContent()).toMatch(/pressure.*Edit it again, or ask in words\.$/s);
    expect(
      await lastTurn(page)
        .getByRole('button', { name: /^Confirm/ })
        .count(),
    ).toBe(0);
    expect(await lastTurn(page).locator('.timeline .node', { hasText: 'revise_sql' }).count()).toBe(0);
    await shot(page, 'edited-sql-invalid.png');

    // A forbidden edit is refused before any database sees a write.
    await editSql(page, 'DELETE FROM sensor_readings');
    const forbidden = page.getByText(/^(Your SQL did not pass the check|The engine refused your SQL): /);
    await forbidden.waitFor();
    expect(await forbidden.textContent()).toMatch(/SELECT|read-only|refused/i);
    await shot(page, 'edited-sql-forbidden.png');

    // The data is whole, and a single number gets no chart.
    await editSql(page, ONE_NUMBER);
    const preview = lastTurn(page).getByRole('region', { name: 'Preview rows' });
    expect(await preview.locator('tbody td').allTextContents()).toEqual(['4800']);
    expect(await lastTurn(page).getByTestId('chart').count()).toBe(0);
    noProblems(page);
    await page.context().close();
  });

  it('runs beyond the preview up to the limit the server enforces, in pages, with a CSV of every row and a line chart of a time series', async () => {
    const page = await c.open();
    await askOnDuckDb(page, 'average temperature per device');
    await editSql(page, HOURLY);

    // A time column and a measure: a line, drawn from the preview's rows first.
    const rows = lastTurn(page).getByRole('region', { name: 'Preview rows' });
    expect(await rows.locator('h3').textContent()).toBe('Preview: the first 20 rows');
    const chart = lastTurn(page).getByTestId('chart');
    await chart.locator('canvas').waitFor();
    expect(await chart.getAttribute('data-kind')).toBe('line');
    expect(await chartDrawn(page)).toBe(true);
    expect(await chart.locator('figcaption').textContent()).toBe(
      'Line: avg_temp over hour (a time column and a measure)',
    );

    // Run: every hour of the two days, and the chart follows the rows.
    await rows.getByRole('button', { name: 'Run' }).click();
    const result = lastTurn(page).getByRole('region', { name: 'Result rows' });
    await result.waitFor();
    expect(await result.locator('h3').textContent()).toMatch(/^Result: 48 rows, \d+ ms$/);
    expect(await result.locator('tbody tr').count()).toBe(48);
    expect(await result.getByTestId('chart').getAttribute('data-kind')).toBe('line');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      result.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8')
      .split('\r\n')
      .filter(Boolean);
    expect(csv[0]).toBe('hour,avg_temp');
    expect(csv).toHaveLength(49);
    // The same rows the server runs, exact (the table rounds; the CSV does not).
    const sessionId = (await page.locator('.session-id code').textContent()) ?? '';
    const served = await c.api<{ rows: unknown[][] }>('POST', `/v1/sessions/${sessionId}/run`, { limit: 1000 });
    expect(csv.slice(1)).toEqual(served.body.rows.map((r) => `${String(r[0])},${String(r[1])}`));
    await shot(page, 'run-and-chart.png');

    // More rows than the server allows: it applies its own cap, and the table pages through them.
    await editSql(page, EVERY_READING);
    const capped = lastTurn(page).getByRole('region', { name: 'Preview rows' });
    await capped.getByLabel('Rows, at most').fill('1000');
    await capped.getByRole('button', { name: 'Run' }).click();
    const all = lastTurn(page).getByRole('region', { name: 'Result rows' });
    await all.waitFor();
    expect(await all.locator('h3').textContent()).toMatch(/^Result: the first 100 rows \(limit 100\), \d+ ms$/);
    const pager = all.getByRole('navigation', { name: 'Pages of rows' });
    expect(await pager.locator('span').textContent()).toBe('Rows 1–50 of 100');
    expect(await all.locator('tbody tr').count()).toBe(50);
    await pager.getByRole('button', { name: 'Next' }).click();
    expect(await pager.locator('span').textContent()).toBe('Rows 51–100 of 100');
    const [every] = await Promise.all([
      page.waitForEvent('download'),
      all.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(
      readFileSync(await every.path(), 'utf8')
        .split('\r\n')
        .filter(Boolean),
    ).toHaveLength(101);
    expect(await all.getByText('There are more rows than the limit shows: run with a higher limit.').count()).toBe(1);
    noProblems(page);
    await page.context().close();
  });

  it('lists sessions with their request, time, engine and status; opens a past one; deletes one after a second click', async () => {
    const page = await c.open();
    const listed = page.getByRole('region', { name: 'Your sessions' }).getByTestId('session');
    await listed.first().waitFor();
    const before = await listed.count();
    expect(before).toBeGreaterThanOrEqual(2);
    const meta = await listed.locator('.meta').allTextContents();
    expect(
      meta.every((m) => /^(just now|\d+ min ago) · DuckDB · (needs confirm|needs clarification|idle)$/.test(m)),
    ).toBe(true);

    // Open the newest: its last answer comes back, and it is marked as the open one.
    await listed.first().getByRole('button', { name: 'average temperature per device', exact: true }).click();
    await lastTurn(page).getByTestId('answer').waitFor();
    expect(await lastTurn(page).locator('pre.sql').textContent()).toBe(EVERY_READING);
    expect(await listed.first().getAttribute('class')).toBe('current');
    const sessionId = (await page.locator('.session-id code').textContent()) ?? '';
    await shot(page, 'sessions.png');

    // Delete asks once more; keeping it changes nothing, deleting removes it here and on the server.
    await listed
      .first()
      .getByRole('button', { name: /^Delete session/ })
      .click();
    await listed.first().getByRole('button', { name: 'Keep' }).click();
    expect(await listed.count()).toBe(before);
    await listed
      .first()
      .getByRole('button', { name: /^Delete session/ })
      .click();
    await listed.first().getByRole('button', { name: 'Delete for good' }).click();
    await listed.nth(before - 1).waitFor({ state: 'detached' });
    expect(await page.locator('.session-id').count()).toBe(0);
    expect((await c.api('GET', `/v1/sessions/${sessionId}`)).status).toBe(404);
    noProblems(page);
    await page.context().close();
  });
});
