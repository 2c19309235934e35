import path from 'node:path';
import { SHOTS, useConsoleStack } from './console-stack';
import { SOURCES_REQUEST, splitSources } from '../support/split-sources';

jest.setTimeout(180_000);

/**
 * A question across two SQL sources in a real browser, against the services as processes: the
 * demo split across a DuckDB file and PostgreSQL (a second DuckDB file where no POSTGRES_URL is
 * set). The console shows what ran where, each part's SQL, the combine step, the combined rows
 * and the answer in words.
 */
describe('a question across sources in the web console (Debian chromium)', () => {
  const sources = splitSources();
  let expected: [string, number][] = [];
  // Registered before the stack's own hooks, so the sources exist when the services start.
  beforeAll(async () => {
    await sources.write();
    expected = await sources.expected();
  });
  afterAll(() => sources.remove());
  const c = useConsoleStack({ SQL_SOURCES: sources.sqlSources, LINKING: 'true', ANSWER_WRITER: 'template' });

  it('shows each part on its source and engine, the combine step, the rows and the answer in words', async () => {
    const page = await c.open();
    await page.getByLabel('Across all SQL sources').check();
    await page.getByLabel('Your request').fill(SOURCES_REQUEST);
    await page.keyboard.press('Enter');
    const turn = page.getByTestId('turn').last();
    await turn.getByTestId('sources-run').waitFor();

    const parts = await turn.getByTestId('sources-parts').locator('tbody tr').allTextContents();
    const crmEngine = sources.engines.endsWith('PostgreSQL') ? 'PostgreSQL' : 'DuckDB';
    expect(parts).toHaveLength(2);
    expect(parts.find((p) => p.startsWith('shop'))).toMatch(/^shopDuckDB\d+no\d+$/);
    expect(parts.find((p) => p.startsWith('crm'))).toMatch(new RegExp(`^crm${crmEngine}\\d+no\\d+$`));
    expect(await turn.getByTestId('part-shop').locator('pre.sql').textContent()).toMatch(/FROM sensor_readings$/);
    expect(await turn.getByTestId('part-crm').locator('pre.sql').textContent()).toMatch(/FROM devices$/);
    const combine = turn.getByTestId('combine');
    expect(await combine.locator('summary').textContent()).toMatch(
      new RegExp(`^Combine · DuckDB, in process · ${expected.length} rows · \\d+ ms$`),
    );
    expect(await combine.locator('pre.sql').textContent()).toMatch(/JOIN scan_crm ON/);

    const words = await turn.getByTestId('answer-words').textContent();
    for (const [site] of expected) expect(words).toContain(site);
    expect(words).toContain('Written by rule from the rows.');
    const table = await turn.locator('table').last().textContent();
    for (const [site] of expected) expect(table).toContain(site);
    expect(page.problems).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'sources-answer.png'), fullPage: true });
  });
});
