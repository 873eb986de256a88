import { describe, expect, it } from 'vitest';
import {
  assembleDocument,
  extractDocument,
  extractPages,
  MAX_FACET_TEXT,
  openPageExtractor,
} from '../../../functions/engine/index.ts';
import { defined } from '../../defined.ts';
import { buildSpecBook, paragraphs, type SpecPage } from './fixtures.ts';

const book: SpecPage[] = [
  {
    lines: [
      { text: 'SECTION 00 01 10', center: true },
      { text: 'TABLE OF CONTENTS', center: true },
      '',
      '09 29 00   GYPSUM BOARD',
      '09 65 13   RESILIENT BASE',
      '00 41 00   BID FORM',
      '13210      ELEVATED WATER STORAGE TANK',
      '',
      { text: 'END OF SECTION', center: true },
    ],
    footer: '00 01 10 - 1',
  },
  {
    lines: [
      { text: 'SECTION 09 29 00', center: true },
      { text: 'GYPSUM BOARD', center: true },
      '',
      'PART 1 - GENERAL',
      '1.1 SUMMARY',
      ...paragraphs(4),
      '1.2 SUBMITTALS',
      ...paragraphs(3, 'Submit product data for'),
    ],
    footer: '09 29 00 - 1',
  },
  {
    lines: [
      'PART 2 - PRODUCTS',
      '2.1 MANUFACTURERS',
      ...paragraphs(3),
      'PART 3 - EXECUTION',
      '3.1 INSTALLATION',
      ...paragraphs(3, 'Install board to'),
      '',
      { text: 'END OF SECTION', center: true },
    ],
    footer: '09 29 00 - 2',
  },
  {
    // MasterSpec style: heading with the title on the same line, and a footer naming another number.
    header: 'Riverside Library Renovation',
    lines: ['SECTION 096513 - RESILIENT BASE', '', 'PART 1 - GENERAL', '1.1 SUMMARY', ...paragraphs(5)],
    footer: 'RESILIENT BASE 096519 - 1',
  },
  {
    header: 'Riverside Library Renovation',
    lines: ['PART 2 - PRODUCTS', '2.1 RUBBER BASE', ...paragraphs(4), '', 'END OF SECTION 096513'],
    footer: 'RESILIENT BASE 096519 - 2',
  },
  {
    // No SECTION heading: the section is known from its footer only.
    lines: [{ text: 'BID FORM', center: true }, '', ...paragraphs(6, 'Bidder agrees to perform')],
    footer: '(Bid Form) 00 41 00 - 1',
  },
  { lines: [{ text: 'THIS PAGE INTENTIONALLY LEFT BLANK', center: true }] },
  {
    lines: [
      { text: 'SECTION 13210', center: true },
      { text: 'ELEVATED WATER STORAGE TANK', center: true },
      '',
      'PART 1 GENERAL',
      '1.01 SCOPE',
      ...paragraphs(3),
      '',
      { text: 'END OF SECTION', center: true },
    ],
    footer: '(Elevated Water Storage Tank) 13210-1',
  },
];

describe('specification sections', () => {
  it('finds sections from headings and footers, with page ranges, and ignores table-of-contents lines', async () => {
    // Prepare
    const bytes = await buildSpecBook(book);

    // Act
    const result = await extractDocument(bytes, { fileName: 'book.pdf', ocr: false });

    // Assess
    const summary = result.specifications.map((s) => [
      s.sectionNumber,
      s.sectionTitle,
      s.pageStart,
      s.pageEnd,
    ]);
    expect(summary).toEqual([
      ['00 01 10', 'TABLE OF CONTENTS', 1, 1],
      ['09 29 00', 'GYPSUM BOARD', 2, 3],
      ['09 65 13', 'RESILIENT BASE', 4, 5],
      ['00 41 00', 'BID FORM', 6, 6],
      ['13210', 'ELEVATED WATER STORAGE TANK', 8, 8],
    ]);
    expect(result.specifications[0]?.isTableOfContents).toBe(true);
    expect(result.specifications[3]?.detectedFrom).toBe('footer');
    expect(result.specifications[4]?.numberFormat).toBe('masterformat1995');
    expect(result.specifications[2]?.sectionNumberAsPrinted).toBe('096513');
    expect(result.classification).toBe('specifications');
    expect(result.pages[6]?.isBlank).toBe(true);
  });

  it("gives an addendum's attached page that prints no section number to the item that names it", async () => {
    // Prepare: the addendum lists its items; a revised bid-form page follows whose footer names only its file;
    // a revised page of another section prints its own footer.
    const bytes = await buildSpecBook([
      {
        lines: [
          { text: 'ADDENDUM NO. 1', center: true },
          '',
          'A. Section 00100 (Instructions to Bidders), replace page 00100-2 with attached revised page.',
          'B. Section 00300 (Bid Form), replace Page 4 of 4 with an attached revised page to add Item 75.',
          '',
          { text: 'END OF ADDENDUM NO. 1', center: true },
        ],
      },
      {
        lines: ['Time of Completion: 365 calendar days.', ...paragraphs(3)],
        footer: '(Instructions to Bidders) 00100-2',
      },
      {
        lines: [
          '74  Painting of Tank, Complete.   LS   1',
          '75  Galvanic Anode Cathodic Protection.   LS   1',
        ],
        footer: 'G:\\PROJECT\\SPECIFICATIONS\\BID FORM.wpd    Page 4 of 4',
      },
    ]);

    // Act
    const result = await extractDocument(bytes, { fileName: 'addendum.pdf', ocr: false });

    // Assess: the addendum's own page is no section; the bid-form page is 00300's.
    expect(
      result.specifications.map((s) => [s.sectionNumber, s.sectionTitle, s.pageStart, s.pageEnd]),
    ).toEqual([
      ['00100', 'Instructions to Bidders', 2, 2],
      ['00300', 'Bid Form', 3, 3],
    ]);
  });

  it('keeps an exhibit or attachment headed with its parent section number as its appendix; a title keeps its size', async () => {
    // Prepare: CSI documents print their exhibits as `SECTION nn nn nn EXHIBIT A` with a footer
    // `nn nn nn Exhibit A - n`, after the parent's END OF SECTION.
    const bytes = await buildSpecBook([
      {
        lines: [
          { text: 'SECTION 00 73 00', center: true },
          { text: 'SUPPLEMENTARY CONDITIONS', center: true },
          '',
          ...paragraphs(5),
          { text: 'END OF SECTION', center: true },
        ],
        footer: '00 73 00 - 1',
      },
      {
        lines: [
          { text: 'SECTION 00 73 00 EXHIBIT A', center: true, size: 12 },
          { text: 'INSURANCE REQUIREMENTS', center: true, size: 12 },
          // A line under the title in another size is not the title's continuation.
          { text: 'FOR PUBLIC WORKS CONTRACTS', center: true, size: 9 },
          '',
          ...paragraphs(5, 'The Contractor shall maintain'),
        ],
        footer: '00 73 00 Exhibit A - 1',
      },
      { lines: [...paragraphs(6, 'Certificates of insurance')], footer: '00 73 00 Exhibit A - 2' },
      {
        lines: [
          { text: 'SECTION 00 73 00 - ATTACHMENT 2', center: true },
          { text: 'WAGE DETERMINATION', center: true },
          '',
          ...paragraphs(4, 'Prevailing wage rates'),
        ],
        footer: '00 73 00 Attachment 2 - 1',
      },
      {
        lines: [
          { text: 'SECTION 01 10 00', center: true },
          { text: 'SUMMARY', center: true },
          '',
          ...paragraphs(4),
          { text: 'END OF SECTION', center: true },
        ],
        footer: '01 10 00 - 1',
      },
    ]);

    // Act
    const result = await extractDocument(bytes, { fileName: 'book.pdf', ocr: false });

    // Assess
    expect(
      result.specifications.map((s) => [s.sectionNumber, s.appendix, s.sectionTitle, s.pageStart, s.pageEnd]),
    ).toEqual([
      ['00 73 00', null, 'SUPPLEMENTARY CONDITIONS', 1, 1],
      ['00 73 00', 'EXHIBIT A', 'INSURANCE REQUIREMENTS', 2, 3],
      ['00 73 00', 'ATTACHMENT 2', 'WAGE DETERMINATION', 4, 4],
      ['01 10 00', null, 'SUMMARY', 5, 5],
    ]);
  });

  it('keeps a letter code after a slash in the number, and ends a title where a table of contents begins', async () => {
    // Prepare
    const bytes = await buildSpecBook([
      {
        lines: [
          { text: 'SECTION 00 43 13/A', center: true },
          { text: 'BID BOND FORM', center: true },
          { text: '00 43 13/B   PERFORMANCE BOND', center: true },
          '',
          ...paragraphs(4),
          { text: 'END OF SECTION', center: true },
        ],
        footer: '00 43 13/A - 1',
      },
      {
        lines: ['', ...paragraphs(6, 'The Surety shall')],
        footer: '00 43 13/B - 1',
      },
    ]);

    // Act
    const result = await extractDocument(bytes, { fileName: 'forms.pdf', ocr: false });

    // Assess
    expect(
      result.specifications.map((s) => [s.sectionNumber, s.sectionTitle, s.pageStart, s.pageEnd]),
    ).toEqual([
      ['00 43 13/A', 'BID BOND FORM', 1, 1],
      ['00 43 13/B', '', 2, 2],
    ]);
  });

  it('builds PART and article facets with keys, labels, text and page ranges', async () => {
    // Prepare
    const bytes = await buildSpecBook(book);

    // Act
    const result = await extractDocument(bytes, { ocr: false });

    // Assess
    const gypsum = defined(
      result.specifications.find((s) => s.sectionNumber === '09 29 00'),
      'section 09 29 00',
    );
    const keys = gypsum.facets.map((f) => f.facetKey);
    expect(keys).toEqual([
      'part-1',
      'part-2',
      'part-3',
      'part-1.article-1.1',
      'part-1.article-1.2',
      'part-2.article-2.1',
      'part-3.article-3.1',
    ]);
    const submittals = defined(
      gypsum.facets.find((f) => f.facetKey === 'part-1.article-1.2'),
      'facet part-1.article-1.2',
    );
    expect(submittals.facetKind).toBe('article');
    expect(submittals.facetLabel).toBe('1.2 SUBMITTALS');
    expect(submittals.facetText).toContain('Submit product data for item 1');
    expect(submittals.facetText).not.toContain('MANUFACTURERS');
    expect([submittals.pageStart, submittals.pageEnd]).toEqual([2, 2]);
    const part2 = defined(
      gypsum.facets.find((f) => f.facetKey === 'part-2'),
      'facet part-2',
    );
    expect(part2.facetLabel).toBe('PART 2 - PRODUCTS');
    expect([part2.pageStart, part2.pageEnd]).toEqual([3, 3]);
    expect(gypsum.facets.every((f) => f.coverageKind === 'full')).toBe(true);
    // Running footers are not part of the text.
    expect(part2.facetText).not.toContain('09 29 00 - 2');
    // Sections without PART headings get one section facet.
    const bidForm = defined(
      result.specifications.find((s) => s.sectionNumber === '00 41 00'),
      'section 00 41 00',
    );
    expect(bidForm.facets.map((f) => f.facetKind)).toEqual(['section']);
  });

  it('splits facets longer than 50,000 characters into partial chunks', async () => {
    // Prepare: one article of about 18 pages of text.
    const long = Array.from({ length: 18 }, (_, i) => ({
      lines: [
        ...(i === 0
          ? [
              { text: 'SECTION 01 45 00', center: true },
              { text: 'QUALITY CONTROL', center: true },
              'PART 1 - GENERAL',
              '1.1 REQUIREMENTS',
            ]
          : []),
        ...paragraphs(44, `Page ${i + 1}: the testing agency shall inspect and report on`),
      ],
      footer: `01 45 00 - ${i + 1}`,
    }));
    const bytes = await buildSpecBook(long);

    // Act
    const result = await extractDocument(bytes, { ocr: false });

    // Assess
    const section = defined(result.specifications[0], 'a section');
    expect(section.textLength).toBeGreaterThan(MAX_FACET_TEXT);
    const chunks = section.facets.filter((f) => f.facetKey.startsWith('part-1.article-1.1'));
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((f) => f.coverageKind === 'partial' && f.facetText.length <= MAX_FACET_TEXT)).toBe(
      true,
    );
    expect(chunks[0]?.facetKey).toBe('part-1.article-1.1.chunk-1');
    expect(chunks[0]?.pageStart).toBe(1);
    expect(chunks.at(-1)?.pageEnd).toBe(18);
  });

  it('assembles page batches into the same sections as one pass (sections spanning batches)', async () => {
    // Prepare
    const bytes = await buildSpecBook(book);

    // Act
    const whole = await extractDocument(bytes, { ocr: false });
    const first = await extractPages(bytes, { pages: { from: 1, to: 2 }, ocr: false });
    const second = await extractPages(bytes, { pages: { from: 3, to: 8 }, ocr: false });
    const assembled = assembleDocument([...second.pages, ...first.pages], { pageCount: first.pageCount });

    // Assess
    expect(first.pages.map((p) => p.pageNumber)).toEqual([1, 2]);
    expect(assembled.specifications).toEqual(whole.specifications);
    expect(assembled.pageRange).toEqual({ from: 1, to: 8 });
  });

  it('an opened file extracts its ranges as separate calls do, and refuses a range outside it', async () => {
    // Prepare
    const bytes = await buildSpecBook(book);
    const separate = [
      ...(await extractPages(bytes, { pages: { from: 1, to: 1 }, ocr: false })).pages,
      ...(await extractPages(bytes, { pages: { from: 2, to: 8 }, ocr: false })).pages,
    ];

    // Act
    const extractor = await openPageExtractor(bytes, { ocr: false });
    const chunks = [
      ...(await extractor.extract({ from: 1, to: 1 })),
      ...(await extractor.extract({ from: 2, to: 8 })),
    ];
    const outside = await extractor.extract({ from: 9, to: 9 }).then(
      () => 'no error',
      (error: { code?: string }) => error.code,
    );
    await extractor.close();

    // Assess
    expect(extractor.pageCount).toBe(8);
    expect(chunks).toEqual(separate);
    expect(outside).toBe('invalid_page_range');
  });
});
