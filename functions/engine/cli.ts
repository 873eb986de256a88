/**
 * npm run extract -- <file.pdf> [--out dir] [--pages 1-20] [--ocr | --no-ocr] [--workers N|auto]
 *                    [--no-crops] [--no-overlays] [--no-sections]
 *
 * Prints a summary and writes, under --out (default out/<file name>):
 *   result.json                 the ExtractionResult
 *   overlays/page-<n>.png       each sheet with every region's box and label drawn
 *   crops/<regionId>.png        a PNG crop per region
 *   sections/<number>_p<n>.pdf  a PDF per specification section
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isExtractionError } from './errors.ts';
import { extractDocument } from './index.ts';
import { openArtifactRenderer } from './io/artifacts.ts';
import { buildSectionPdf } from './io/pdf-structure.ts';
import type { ExtractionResult } from './model.ts';

interface CliOptions {
  file: string;
  out: string;
  pages?: { from: number; to: number };
  ocr: boolean | 'auto';
  workers: number | 'auto';
  crops: boolean;
  overlays: boolean;
  sections: boolean;
}

const usage =
  'usage: npm run extract -- <file.pdf> [--out dir] [--pages a-b] [--ocr|--no-ocr] [--workers N|auto] [--no-crops] [--no-overlays] [--no-sections]';

const parseArgs = (argv: string[]): CliOptions => {
  const file = argv.find(
    (arg, index) =>
      !arg.startsWith('--') && !['--out', '--pages', '--workers'].includes(argv[index - 1] ?? ''),
  );
  if (!file) throw new Error(usage);
  const value = (name: string): string | undefined => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const pagesArg = value('--pages');
  let pages: CliOptions['pages'];
  if (pagesArg) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(pagesArg);
    if (!match) throw new Error(`--pages must look like 3 or 3-10; got ${pagesArg}`);
    pages = { from: Number(match[1]), to: Number(match[2] ?? match[1]) };
  }
  const workersArg = value('--workers') ?? 'auto';
  return {
    file,
    out: value('--out') ?? path.join('out', path.basename(file, path.extname(file))),
    ...(pages ? { pages } : {}),
    ocr: argv.includes('--no-ocr') ? false : argv.includes('--ocr') ? true : 'auto',
    workers: workersArg === 'auto' ? 'auto' : Math.max(1, Number(workersArg) || 1),
    crops: !argv.includes('--no-crops'),
    overlays: !argv.includes('--no-overlays'),
    sections: !argv.includes('--no-sections'),
  };
};

const safeName = (name: string): string => name.replace(/[^A-Za-z0-9._-]+/g, '_');

const printSummary = (result: ExtractionResult): void => {
  console.log(
    `${result.fileName ?? 'file'}: ${result.pageCount} pages (${result.pageRange.from}-${result.pageRange.to} processed), ${result.classification}`,
  );
  const kinds = new Map<string, number>();
  for (const page of result.pages) kinds.set(page.classification, (kinds.get(page.classification) ?? 0) + 1);
  console.log(
    `  pages: ${[...kinds].map(([kind, count]) => `${count} ${kind}`).join(', ')}; ${result.pages.filter((page) => !page.hasTextLayer).length} without text layer; OCR on ${result.stats.ocrPages} (${result.stats.ocrSeconds} s)`,
  );
  if (result.sheets.length) {
    console.log(`  sheets (${result.sheets.length}):`);
    for (const sheet of result.sheets) {
      const counts = new Map<string, number>();
      for (const reg of sheet.regions) counts.set(reg.regionType, (counts.get(reg.regionType) ?? 0) + 1);
      console.log(
        `    p${sheet.pageNumber} ${sheet.sheetNumber ?? '?'}  ${sheet.sheetTitle ?? '(no title)'}  [${sheet.discipline?.code ?? '-'} ${sheet.discipline?.label ?? ''}]` +
          `  ${[...counts].map(([regionType, count]) => `${count} ${regionType}`).join(', ')}${sheet.textSource === 'ocr' ? '  (OCR)' : ''}`,
      );
    }
  }
  if (result.specifications.length) {
    console.log(`  specification sections (${result.specifications.length}):`);
    for (const section of result.specifications) {
      console.log(
        `    ${section.sectionNumber.padEnd(12)} ${section.sectionTitle.slice(0, 60).padEnd(60)} pp. ${section.pageStart}-${section.pageEnd}  ${section.facets.length} facets`,
      );
    }
  }
  for (const issue of result.issues)
    console.log(`  issue p${issue.pageNumber}: ${issue.code} ${issue.message}`);
  console.log(`  ${result.stats.elapsedMs} ms`);
};

const main = async (): Promise<void> => {
  const options = parseArgs(process.argv.slice(2));
  const bytes = new Uint8Array(readFileSync(options.file));
  const result = await extractDocument(bytes, {
    fileName: path.basename(options.file),
    ...(options.pages ? { pages: options.pages } : {}),
    ocr: options.ocr,
    workers: options.workers,
  });
  printSummary(result);
  mkdirSync(options.out, { recursive: true });
  writeFileSync(path.join(options.out, 'result.json'), JSON.stringify(result, null, 2));
  let written = 1;
  if (result.sheets.length && (options.crops || options.overlays)) {
    const renderer = await openArtifactRenderer(bytes);
    try {
      if (options.overlays) mkdirSync(path.join(options.out, 'overlays'), { recursive: true });
      if (options.crops) mkdirSync(path.join(options.out, 'crops'), { recursive: true });
      for (const sheet of result.sheets) {
        if (options.overlays) {
          const png = await renderer.overlay(sheet.pageNumber, sheet.regions, 50);
          writeFileSync(path.join(options.out, 'overlays', `page-${sheet.pageNumber}.png`), png);
          written++;
        }
        if (options.crops) {
          for (const region of sheet.regions) {
            const png = await renderer.crop(sheet.pageNumber, region.displayBox, 110);
            writeFileSync(path.join(options.out, 'crops', `${safeName(region.regionId)}.png`), png);
            written++;
          }
        }
      }
    } finally {
      await renderer.close();
    }
  }
  if (options.sections && result.specifications.length) {
    mkdirSync(path.join(options.out, 'sections'), { recursive: true });
    for (const section of result.specifications) {
      const pdf = await buildSectionPdf(bytes, section.pageStart, section.pageEnd);
      writeFileSync(
        path.join(options.out, 'sections', `${safeName(section.sectionNumber)}_p${section.pageStart}.pdf`),
        pdf,
      );
      written++;
    }
  }
  console.log(`wrote ${written} files to ${options.out}`);
};

main().catch((error: unknown) => {
  if (isExtractionError(error)) console.error(`extraction failed: ${error.code}: ${error.message}`);
  else console.error((error as Error).message ?? error);
  process.exitCode = 1;
});
