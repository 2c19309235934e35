import path from 'node:path';
import type { Page } from 'playwright-core';
import { SHOTS, useConsoleStack, type WatchedPage } from './console-stack';

jest.setTimeout(120_000);

const HOT = 'average temperature per device, only above 30';

/**
 * What the product has learnt, taught and forgotten in a real browser (Debian chromium) against the
 * services as processes, on the embedded DuckDB with plan mode trusting conclusive readings (no
 * model drafts these requests): a glossary term defined in the console, read by a request, listed
 * and forgotten; a question confirmed in the console listed and forgotten.
 */
describe('the glossary and the confirmed questions in the web console (Debian chromium)', () => {
  const c = useConsoleStack({ DRAFT_MODE: 'plan', LINKING: 'true', PLAN_TRUST_LINKS: 'true' });
  const lastTurn = (page: Page) => page.getByTestId('turn').last();
  const learnt = (page: Page) => page.locator('details.learnt');

  async function ask(page: Page, request: string): Promise<void> {
    await page.getByLabel('Your request').fill(request);
    await page.keyboard.press('Enter');
    await lastTurn(page).getByTestId('answer').waitFor();
  }

  async function openOnDuckDb(): Promise<WatchedPage> {
    const page = await c.open();
    await page.getByLabel('Engine').locator('option', { hasText: 'DuckDB' }).waitFor({ state: 'attached' });
    await page.getByLabel('Engine').selectOption('duckdb');
    await page.locator('.streams summary', { hasText: 'sensor_readings' }).waitFor();
    await learnt(page).locator('summary').click();
    return page;
  }

  it('defines a term, a request reads it, the glossary lists it, and forgets it; a bad meaning is refused in words', async () => {
    const page = await openOnDuckDb();
    const glossary = page.getByRole('region', { name: 'Glossary' });
    await glossary.getByText('No terms yet').waitFor();

    const form = page.getByRole('form', { name: 'Define a term' });
    await form.getByLabel('Term', { exact: true }).fill('warm');
    await form.getByLabel('Table', { exact: true }).fill('sensor_readings');
    await form.getByLabel('Means', { exact: true }).selectOption('condition');
    await form.getByLabel('Meaning', { exact: true }).fill('temperature is warm');
    await form.getByRole('button', { name: 'Define' }).click();
    await learnt(page).getByRole('alert').waitFor();
    expect(await learnt(page).getByRole('alert').textContent()).toMatch(/^'warm': 'temperature is warm' is not a condition/);
    expect(await glossary.getByTestId('term').count()).toBe(0);

    await form.getByLabel('Term', { exact: true }).fill('revenue');
    await form.getByLabel('Table', { exact: true }).fill('orders');
    await form.getByLabel('Means', { exact: true }).selectOption('expr');
    await form.getByLabel('Meaning', { exact: true }).fill('quantity * unit_price');
    await form.getByRole('button', { name: 'Define' }).click();
    await glossary.getByTestId('term').first().waitFor();
    expect(await glossary.getByTestId('term').allTextContents()).toEqual([expect.stringMatching(/^revenue quantity \* unit_price orders · acme/)]);
    // Stored on the server for the key's tenant, as the REST API lists it.
    const listed = await c.api<{ entries: { term: string; created_by: string }[] }>('GET', '/v1/glossary');
    expect(listed.body.entries).toEqual([expect.objectContaining({ term: 'revenue', created_by: 'acme' })]);

    await ask(page, 'total revenue per category');
    expect(await lastTurn(page).locator('pre.sql').first().textContent()).toBe('SELECT category, sum(quantity * unit_price) AS sum_revenue FROM orders GROUP BY category');
    expect(await lastTurn(page).textContent()).toContain('"revenue" is read as quantity * unit_price, as your glossary defines it');

    await glossary.getByRole('button', { name: 'Forget revenue' }).click();
    await glossary.getByText('No terms yet').waitFor();
    expect((await c.api<{ entries: unknown[] }>('GET', '/v1/glossary')).body.entries).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'glossary.png'), fullPage: true });
    expect(page.problems).toEqual([]);
    await page.context().close();
  }); // prettier-ignore

  it('lists a question confirmed in the console and forgets it', async () => {
    const page = await openOnDuckDb();
    const confirmed = page.getByRole('region', { name: 'Confirmed questions' });
    await confirmed.getByText('None yet').waitFor();
    await ask(page, HOT);
    const sql = (await lastTurn(page).locator('pre.sql').first().textContent()) ?? '';
    await page.getByRole('button', { name: 'Confirm this answer' }).click();
    await page.getByRole('button', { name: 'Confirm this answer' }).waitFor({ state: 'detached' });

    // Opened again, the panel reads the list afresh.
    await learnt(page).locator('summary').click();
    await learnt(page).locator('summary').click();
    await confirmed.getByTestId('example').first().waitFor();
    expect(await confirmed.getByTestId('example').allTextContents()).toEqual([`${HOT}${sql}Forget`]);
    const examples = await c.api<{ examples: { request: string }[] }>('GET', '/v1/examples');
    expect(examples.body.examples).toEqual([expect.objectContaining({ request: HOT, sql })]);

    await confirmed.getByRole('button', { name: `Forget ${HOT}` }).click();
    await confirmed.getByText('None yet').waitFor();
    expect((await c.api<{ examples: unknown[] }>('GET', '/v1/examples')).body.examples).toEqual([]);
    expect(page.problems).toEqual([]);
    await page.context().close();
  }); // prettier-ignore
});
