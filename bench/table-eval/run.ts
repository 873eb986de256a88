/**
 * Tables read from drawings against labelled ones.
 *
 *   npm run bench:table-eval -- [--file substr] [--no-ocr] [--json out.json] [--verbose]
 *
 * Labels: `$CORPUS_DIR/labels/tables.json` merged with this folder's `labels.json` (tables labelled for this
 * project, same format); entries whose file is not in CORPUS_DIR are skipped. Each labelled page is extracted
 * (OCR where the page needs it) and every table the engine read there (regions' `table`) is a candidate.
 * Prints per table, overall, text-layer and OCR'd: detection (IoU >= 0.5 with the labelled frame), header cells
 * exact, body cells exact, rows exact. `--json` writes {overall, textLayer, ocr, tables}.
 * Skips cleanly (exit 0) when the corpus is absent.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openPageExtractor } from '../../functions/engine/index.ts';
import { benchArgs, corpusDir, flagValue } from '../args.ts';
import { recordResult } from '../results.ts';
import {
  type ReadTable,
  type Summary,
  scoreTable,
  summarize,
  type TableLabel,
  type TableScore,
} from './score.ts';

const args = benchArgs;
const flag = flagValue;
const corpus = corpusDir;
const fileFilter = flag('--file');
const jsonOut = flag('--json');
const verbose = args.includes('--verbose');
const ocr = args.includes('--no-ocr') ? false : 'auto';

interface LabelsFile {
  files: Record<string, { tables: TableLabel[] }>;
}
const labelFiles = [
  path.join(corpus, 'labels', 'tables.json'),
  path.join(import.meta.dirname, 'labels.json'),
];
const labels = new Map<string, TableLabel[]>();
for (const file of labelFiles) {
  if (!existsSync(file)) continue;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as LabelsFile;
  for (const [pdf, entry] of Object.entries(parsed.files))
    labels.set(pdf, [...(labels.get(pdf) ?? []), ...entry.tables]);
}
if (!existsSync(path.join(corpus, 'labels'))) {
  console.log(`table-eval: corpus not found at ${corpus}; skipping.`);
  process.exit(0);
}

const pct = (share: number): string => `${(share * 100).toFixed(1)}%`;
const line = (name: string, summary: Summary): string =>
  `${name.padEnd(12)} tables ${String(summary.tables).padStart(3)}  detection ${pct(summary.detection).padStart(6)}  ` +
  `header cells ${pct(summary.headerCells).padStart(6)}  body cells ${pct(summary.bodyCells).padStart(6)}  rows ${pct(summary.rows).padStart(6)}`;

const results: Array<{ file: string; label: TableLabel; score: TableScore }> = [];
for (const [file, tables] of labels) {
  if (fileFilter && !file.includes(fileFilter)) continue;
  const pdfPath = path.join(corpus, file);
  if (!existsSync(pdfPath)) {
    console.log(`${file}: not in ${corpus}, skipped`);
    continue;
  }
  const extractor = await openPageExtractor(new Uint8Array(readFileSync(pdfPath)), { ocr });
  try {
    console.log(`\n== ${file}`);
    for (const page of [...new Set(tables.map((table) => table.page))].sort((a, b) => a - b)) {
      const started = Date.now();
      const [result] = await extractor.extract({ from: page, to: page });
      const candidates: ReadTable[] = (result?.sheet?.regions ?? []).flatMap((region) =>
        region.table
          ? [
              {
                box: [
                  region.table.displayBox.left,
                  region.table.displayBox.top,
                  region.table.displayBox.right,
                  region.table.displayBox.bottom,
                ],
                header: region.table.header,
                rows: region.table.rows.map((row) => row.cells.map((cell) => cell.text)),
              } satisfies ReadTable,
            ]
          : [],
      );
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      for (const label of tables.filter((table) => table.page === page)) {
        const score = scoreTable(label, candidates);
        results.push({ file, label, score });
        console.log(
          `  p${page} ${label.title.slice(0, 48).padEnd(48)} ${label.textLayer ? 'text' : 'OCR '}  ` +
            (score.detected
              ? `IoU ${score.iou.toFixed(2)}  header ${score.headerCells.exact}/${score.headerCells.total}  ` +
                `cells ${score.bodyCells.exact}/${score.bodyCells.total}  rows ${score.rows.exact}/${score.rows.total}`
              : `NOT FOUND (best IoU ${score.iou.toFixed(2)}; ${candidates.length} tables read on the page)`) +
            `  ${seconds} s`,
        );
        if (verbose)
          for (const candidate of candidates)
            console.log(
              `      read ${candidate.box.map(Math.round).join(',')} ${candidate.rows.length} rows: ${JSON.stringify(candidate.header)}`,
            );
      }
    }
  } finally {
    await extractor.close();
  }
}

const overall = summarize(results.map((result) => result.score));
const textLayer = summarize(results.filter((result) => result.label.textLayer).map((result) => result.score));
const ocrd = summarize(results.filter((result) => !result.label.textLayer).map((result) => result.score));
console.log('\n== overall (targets: text layer detection >= 95 %, body cells >= 97 %; OCR >= 90 %, >= 85 %)');
console.log(line('overall', overall));
console.log(line('text layer', textLayer));
console.log(line('OCR', ocrd));
const share = (value: number): string => `${(value * 100).toFixed(1)} %`;
if (fileFilter || ocr === false)
  console.log('\n(a part of the labels or no OCR: bench/results/table-eval.json is left as it was)');
else
  recordResult('table-eval', [
    {
      measure: `Text-layer tables (${textLayer.tables}): detection, body cells exact`,
      result: `${share(textLayer.detection)}, ${share(textLayer.bodyCells)} (header cells ${share(textLayer.headerCells)}, rows ${share(textLayer.rows)})`,
      target: '>= 95 %, >= 97 %',
    },
    {
      measure: `OCR'd tables (${ocrd.tables}): detection, body cells exact`,
      result: `${share(ocrd.detection)}, ${share(ocrd.bodyCells)} (header cells ${share(ocrd.headerCells)}, rows ${share(ocrd.rows)})`,
      target: '>= 90 %, >= 85 %',
    },
  ]);
if (jsonOut) {
  writeFileSync(
    jsonOut,
    `${JSON.stringify(
      {
        overall,
        textLayer,
        ocr: ocrd,
        tables: results.map(({ file, label, score }) => ({
          file,
          page: label.page,
          title: label.title,
          textLayer: label.textLayer,
          ...score,
        })),
      },
      null,
      1,
    )}\n`,
  );
}
