import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { buildSectionPdfs } from '../../../functions/engine/index.ts';
import { buildSpecBook, paragraphs } from './fixtures.ts';

const collect = async (pdfs: AsyncIterable<Uint8Array | null>) => {
  const out: (Uint8Array | null)[] = [];
  for await (const pdf of pdfs) out.push(pdf);
  return out;
};

describe('section PDFs', () => {
  it('cuts one PDF per range, in order, and null for a range outside the file', async () => {
    // Prepare
    const bytes = await buildSpecBook(
      [1, 2, 3, 4, 5].map((page) => ({ lines: [`PAGE ${page}`, ...paragraphs(2)] })),
    );

    // Act
    const pdfs = await collect(
      buildSectionPdfs(bytes, [
        { from: 1, to: 2 },
        { from: 4, to: 9 },
        { from: 3, to: 5 },
      ]),
    );

    // Assess
    expect(pdfs.map((pdf) => pdf === null)).toEqual([false, true, false]);
    const pageCounts = await Promise.all(
      pdfs.flatMap((pdf) => (pdf ? [PDFDocument.load(pdf).then((doc) => doc.getPageCount())] : [])),
    );
    expect(pageCounts).toEqual([2, 3]);
  });

  it('gives the PDFs one by one, as they are read', async () => {
    // Prepare
    const bytes = await buildSpecBook([1, 2, 3].map((page) => ({ lines: [`PAGE ${page}`] })));
    const pdfs = buildSectionPdfs(bytes, [
      { from: 1, to: 1 },
      { from: 2, to: 2 },
      { from: 3, to: 3 },
    ])[Symbol.asyncIterator]();

    // Act: the first read returns the first PDF alone; the others come on later reads.
    const first = await pdfs.next();
    const rest = await collect({ [Symbol.asyncIterator]: () => pdfs });

    // Assess
    expect(first.done).toBe(false);
    expect(first.value).toBeInstanceOf(Uint8Array);
    expect(rest).toHaveLength(2);
  });

  it('fails on the first read when the source cannot be loaded', async () => {
    // Act / Assess
    await expect(
      collect(buildSectionPdfs(new TextEncoder().encode('not a pdf'), [{ from: 1, to: 1 }])),
    ).rejects.toMatchObject({ code: 'pdf_malformed' });
  });
});
