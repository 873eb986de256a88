import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import {
  type ExtractionError,
  extractDocument,
  extractPages,
  isExtractionError,
} from '../../../functions/engine/index.ts';
import {
  bombPdf,
  buildSpecBook,
  encryptedPdf,
  hugePageCountPdf,
  paragraphs,
  truncate,
  zeroPagePdf,
} from './fixtures.ts';

const codeOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    expect(isExtractionError(error)).toBe(true);
    return (error as ExtractionError).code;
  }
  return 'no error';
};

describe('broken and hostile files end in a coded ExtractionError', () => {
  it('empty file → pdf_empty; not a PDF → pdf_malformed', async () => {
    expect(await codeOf(extractDocument(new Uint8Array()))).toBe('pdf_empty');
    expect(await codeOf(extractDocument(new TextEncoder().encode('hello, this is not a PDF')))).toBe(
      'pdf_malformed',
    );
  });

  it('garbage after a PDF header → pdf_malformed', async () => {
    const bytes = new Uint8Array(4096);
    bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
    for (let i = 9; i < bytes.length; i++) bytes[i] = (i * 7919) % 251;
    expect(await codeOf(extractDocument(bytes))).toBe('pdf_malformed');
  });

  it('a truncated PDF either fails with pdf_malformed or yields what it can, never a crash', async () => {
    // Prepare
    const whole = await buildSpecBook([{ lines: ['SECTION 01 10 00', 'SUMMARY', ...paragraphs(20)] }]);

    // Act
    let outcome: string;
    try {
      const result = await extractDocument(truncate(whole, 0.5), { ocr: false });
      outcome = `ok:${result.pageCount}`;
    } catch (error) {
      outcome = isExtractionError(error) ? error.code : 'crash';
    }

    // Assess
    expect(['pdf_malformed', 'ok:1']).toContain(outcome);
  });

  it('password-protected → pdf_encrypted', async () => {
    expect(await codeOf(extractDocument(encryptedPdf()))).toBe('pdf_encrypted');
  });

  it('zero pages → pdf_empty', async () => {
    expect(['pdf_empty', 'pdf_malformed']).toContain(await codeOf(extractDocument(zeroPagePdf())));
    expect(await codeOf(extractDocument(zeroPagePdf()))).toBe('pdf_empty');
  });

  it('a page count over the limit → pdf_too_many_pages, before any page is read', async () => {
    const started = Date.now();
    // A /Count that lies (10 million, one page in the tree): pdf.js counts the real pages; no blow-up.
    const lying = await extractDocument(hugePageCountPdf(10_000_000), { ocr: false });
    expect(lying.pageCount).toBe(1);
    const doc = await PDFDocument.create();
    for (let i = 0; i < 12; i++) doc.addPage();
    expect(await codeOf(extractDocument(await doc.save(), { limits: { maxPages: 10 } }))).toBe(
      'pdf_too_many_pages',
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a decompression bomb → resource_limit, without inflating it in full', async () => {
    // Prepare: 64 MB of spaces in a ~64 KB stream; the per-stream cap is set to 8 MB.
    const bytes = bombPdf(64 * 1024 * 1024);
    expect(bytes.byteLength).toBeLessThan(1024 * 1024);
    const before = process.memoryUsage().rss;

    // Act
    const code = await codeOf(
      extractDocument(bytes, { limits: { maxInflatedBytesPerStream: 8 * 1024 * 1024 } }),
    );

    // Assess
    expect(code).toBe('resource_limit');
    expect(process.memoryUsage().rss - before).toBeLessThan(48 * 1024 * 1024);
  });

  it('a file over the size limit → pdf_too_large', async () => {
    const bytes = await buildSpecBook([{ lines: ['SECTION 01 10 00'] }]);
    expect(await codeOf(extractDocument(bytes, { limits: { maxFileBytes: 100 } }))).toBe('pdf_too_large');
  });

  it('a page over its time budget is reported on that page; the other pages still come back', async () => {
    // Prepare
    const bytes = await buildSpecBook([{ lines: paragraphs(5) }, { lines: paragraphs(5) }]);

    // Act
    const result = await extractDocument(bytes, { ocr: false, limits: { pageTimeoutMs: 0 } });

    // Assess
    expect(result.issues.map((i) => i.code)).toEqual(['page_timeout', 'page_timeout']);
    expect(result.pages.map((p) => p.issue?.code)).toEqual(['page_timeout', 'page_timeout']);
  });

  it('an invalid page range → invalid_page_range', async () => {
    const bytes = await buildSpecBook([{ lines: ['x'] }]);
    expect(await codeOf(extractPages(bytes, { pages: { from: 2, to: 3 } }))).toBe('invalid_page_range');
  });

  it('worker threads return the same sections as one thread, and report errors with the same codes', async () => {
    // Prepare
    const pages = Array.from({ length: 6 }, (_, i) => ({
      lines: [...(i % 2 === 0 ? [`SECTION 0${i + 1} 10 00`, 'GENERAL REQUIREMENTS'] : []), ...paragraphs(8)],
      footer: `0${i - (i % 2) + 1} 10 00 - ${(i % 2) + 1}`,
    }));
    const bytes = await buildSpecBook(pages);

    // Act
    const inline = await extractDocument(bytes, { ocr: false });
    const parallel = await extractDocument(bytes, { ocr: false, workers: 2, batchSize: 2 });

    // Assess
    expect(parallel.specifications.map((s) => [s.sectionNumber, s.pageStart, s.pageEnd])).toEqual([
      ['01 10 00', 1, 2],
      ['03 10 00', 3, 4],
      ['05 10 00', 5, 6],
    ]);
    expect(parallel.specifications).toEqual(inline.specifications);
    expect(await codeOf(extractDocument(encryptedPdf(), { workers: 2 }))).toBe('pdf_encrypted');
    // The byte checks run in the first worker while the others wait: their errors keep their codes too.
    expect(await codeOf(extractDocument(new Uint8Array(), { workers: 2 }))).toBe('pdf_empty');
    const bomb = extractDocument(bombPdf(64 * 1024 * 1024), {
      workers: 2,
      limits: { maxInflatedBytesPerStream: 8 * 1024 * 1024 },
    });
    expect(await codeOf(bomb)).toBe('resource_limit');
    // A worker that dies of its heap cap while opening the file fails the file with a code.
    expect(await codeOf(extractDocument(bytes, { workers: 2, maxWorkerHeapMb: 4 }))).toBe('resource_limit');
  });
});
