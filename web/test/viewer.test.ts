import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createClient } from '../../sdk/src/node.ts';
import { pdfFolder } from '../../sdk/test/fixtures.ts';
import { createOrg, type TestOrg } from '../../test/integration/helpers.ts';
import { ensureChromium } from './chromium.ts';

const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-results', 'viewer');
/** The flags this machine needs (no sandbox as root, no network beyond loopback, no first-run work). */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe('the web viewer in headless Chromium', () => {
  const apiUrl = inject('apiUrl');
  let org: TestOrg;
  let projectId: string;
  let context: BrowserContext;
  let page: Page;
  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    const executablePath = ensureChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    org = await createOrg(100_000);
    const client = createClient({ baseUrl: apiUrl, apiKey: org.apiKey });
    const created = await client.projects.create('Camilla Gymnasium');
    projectId = created.project.id;
    await client.waitForProject(projectId, { intervalMs: 100 });
    const job = await client.jobs.create(projectId, { displayName: 'Bid set' });
    await client.uploadFiles(job.id, [await pdfFolder()]);
    const done = await client.waitForJob(job.id, { intervalMs: 250 });
    if (done.status !== 'completed') throw new Error(`fixture job ended ${done.status}`);
    context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'psa-chromium-')), {
      executablePath,
      headless: true,
      args: FLAGS,
      viewport: { width: 1600, height: 1000 },
    });
    page = context.pages()[0] ?? (await context.newPage());
  });

  afterAll(async () => {
    await context?.close();
  });

  it('signs in with a key and loads a project with its sheets and specification sections', async () => {
    // Act
    await page.goto(`${apiUrl}/viewer/`);
    await page.getByTestId('api-key').fill(org.apiKey);
    await page.getByTestId('sign-in').click();
    await page.getByTestId('project-link').filter({ hasText: 'Camilla Gymnasium' }).click();
    await page.getByTestId('sheet-link').first().waitFor();
    await page.getByTestId('job-status').filter({ hasText: 'completed' }).waitFor();
    await shot('1-project');

    // Assess
    await expect
      .poll(() => page.getByTestId('sheet-link').allTextContents())
      .toEqual(expect.arrayContaining([expect.stringContaining('A-101'), expect.stringContaining('A-501')]));
    expect(await page.getByTestId('spec-link').allTextContents()).toEqual([
      expect.stringContaining('09 29 00'),
    ]);
    expect(await page.getByTestId('job-status').textContent()).toMatch(
      /Bid set: completed · (\d+)\/\1 pages/,
    );
  });

  it('opens a sheet with its regions drawn over it, their crops loaded', async () => {
    // Act
    await page.getByTestId('sheet-link').filter({ hasText: 'A-101' }).click();
    await page.getByTestId('region-overlay').first().waitFor();
    await expect
      .poll(() =>
        page
          .locator('[data-testid="sheet-canvas"] image')
          .evaluateAll((images) => images.map((image) => image.getAttribute('href')?.slice(0, 5))),
      )
      .toEqual(['blob:', 'blob:', 'blob:']);
    await shot('2-sheet');

    // Assess
    expect(await page.getByTestId('sheet-title').textContent()).toContain('A-101');
    const types = await page
      .getByTestId('region-overlay')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-region-type')));
    expect(types).toEqual(expect.arrayContaining(['titleBlock', 'generalNotes', 'view']));
    expect(types.length).toBeGreaterThanOrEqual(3);
    // The sheet-wide view is painted first (SVG paints in document order), under the regions it holds.
    const areas = await page
      .getByTestId('region-overlay')
      .evaluateAll((nodes) =>
        nodes.map((node) => Number(node.getAttribute('width')) * Number(node.getAttribute('height'))),
      );
    expect(types[0]).toBe('view');
    expect(areas).toEqual([...areas].sort((a, b) => b - a));
  });

  it('follows a sheet reference to the target sheet', async () => {
    // Act
    await page.getByTestId('reference-link').filter({ hasText: 'A-501' }).first().click();
    await page.getByTestId('sheet-title').filter({ hasText: 'A-501' }).waitFor();

    // Assess
    expect(page.url()).toMatch(/#\/p\/prj_[0-9a-z]+\/sheet\/sht_/);
  });

  it('searches and opens the sheet at a region hit', async () => {
    // Act
    await page.getByTestId('search-input').fill('first floor plan');
    await page.getByTestId('search-submit').click();
    const hit = page.locator('[data-testid="search-hit"][data-source-type="region"]').first();
    await hit.waitFor();
    await hit.click();
    await page.locator('.region-box.focused').waitFor();
    await shot('3-search');

    // Assess: SVG paints in document order; the hit's outline is painted last, over everything.
    expect(await page.getByTestId('sheet-title').textContent()).toContain('A-101');
    expect(await page.getByTestId('search-results').textContent()).toMatch(/first/i);
    const order = await page
      .getByTestId('region-overlay')
      .evaluateAll((nodes) =>
        nodes.map(
          (node) =>
            `${node.getAttribute('data-region-type')}${node.classList.contains('focused') ? '*' : ''}`,
        ),
      );
    expect(order.at(-1)).toMatch(/\*$/);
    expect(order.filter((entry) => entry.endsWith('*'))).toHaveLength(1);
    const hitBox = await page.locator('.region-box.focused').boundingBox();
    // Evaluated in the page (a string: this file is type-checked without the DOM library).
    const topmost = await page.evaluate(
      `document.elementFromPoint(${(hitBox?.x ?? 0) + 1}, ${(hitBox?.y ?? 0) + (hitBox?.height ?? 0) / 2})?.classList.contains('focused') ?? false`,
    );
    expect(topmost).toBe(true);
  });

  it('asks a question, streams the answer and opens a cited crop', async () => {
    // Act
    await page
      .getByTestId('question-input')
      .fill('What does general note 1 on sheet A-101 say about gypsum board?');
    await page.getByTestId('ask-submit').click();
    await page.getByTestId('review-status').filter({ hasText: 'Answered' }).waitFor({ timeout: 60_000 });
    const citation = page.getByTestId('citation').first();
    await citation.click();
    await page.getByTestId('artifact-image').waitFor();
    await expect
      .poll(() =>
        page
          .getByTestId('artifact-image')
          .evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBeGreaterThan(0);
    await shot('4-review');

    // Assess
    expect((await page.getByTestId('answer').textContent())?.length).toBeGreaterThan(20);
    expect(await page.getByTestId('citation').count()).toBeGreaterThan(0);
  });

  it('opens a cited document page with the quote highlighted and scrolled into view; only the panels scroll', async () => {
    // Prepare: an answer from the addendum (a document: its citation opens the page's text).
    await page.getByTestId('artifact-dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('question-input').fill('Who pays the permit fees?');
    await page.getByTestId('ask-submit').click();
    await page.getByTestId('review-status').filter({ hasText: 'Answered' }).waitFor({ timeout: 60_000 });

    // Act
    await page.getByTestId('citation').filter({ hasText: 'addendum-02.pdf' }).first().click();
    const quote = page.getByTestId('source-quote');
    await quote.waitFor();
    await shot('5-cited-page');

    // Assess
    expect(await quote.textContent()).toMatch(/permit fees/i);
    const main = await page.getByTestId('main').boundingBox();
    const marked = await quote.boundingBox();
    expect(marked?.y).toBeGreaterThanOrEqual(main?.y ?? Number.POSITIVE_INFINITY);
    expect((marked?.y ?? 0) + (marked?.height ?? 0)).toBeLessThanOrEqual(
      (main?.y ?? 0) + (main?.height ?? 0),
    );
    const scrolling = (await page.evaluate(`({
      page: document.scrollingElement.scrollHeight,
      viewport: window.innerHeight,
      side: getComputedStyle(document.querySelector('aside.side')).overflowY,
    })`)) as { page: number; viewport: number; side: string };
    expect(scrolling.page).toBeLessThanOrEqual(scrolling.viewport);
    expect(scrolling.side).toBe('auto');
  });

  it('shows a specification section with its PART and article facets', async () => {
    // Act
    await page.goto(`${apiUrl}/viewer/#/p/${projectId}`);
    await page.getByTestId('spec-link').first().click();
    await page.getByTestId('facet').first().waitFor();

    // Assess
    expect(await page.getByTestId('spec-title').textContent()).toBe('09 29 00 GYPSUM BOARD');
    const facets = await page.getByTestId('facet').locator('summary strong').allTextContents();
    expect(facets).toEqual(
      expect.arrayContaining([expect.stringMatching(/^PART 1/), expect.stringMatching(/^PART 3/)]),
    );
    expect(facets.some((label) => /^1\.1\b/.test(label) || /SUMMARY/i.test(label))).toBe(true);
  });
});
