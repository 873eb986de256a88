/**
 * Quality of the extraction engine against the ground truth in `$CORPUS_DIR/labels` (default
 * ../shared/corpus): `specs.json` and `sheets.json`, either may be absent.
 *
 *   PATH=$PWD/node_modules/.bin:$PATH tsx bench/extraction-eval/run.ts [--file substr] [--only specs|sheets]
 *                                                                      [--no-ocr] [--json out.json] [--verbose]
 *                                                                      [--results dir [--rescore]]
 *
 * Prints per file and overall: section-number precision/recall/F1, exact page ranges, title agreement;
 * for every drawing set, labelled or not (PDFs of the corpus and drawings-extra/ without labels are extracted
 * too), label-free consistency figures (consistency.ts: index agreement, distinct numbers, callouts resolved);
 * sheet-number accuracy (text-layer and OCR sheets separately), discipline and title accuracy; titled views
 * (by title position and by title text), callout references, region boxes (IoU >= 0.5).
 * `--results dir` writes each file's ExtractionResult there; `--rescore` scores those files instead of
 * extracting again (for changes to the scoring only).
 * Skips cleanly (exit 0) when the corpus has neither label file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { extractDocument } from '../../functions/engine/index.ts';
import type { ExtractionResult } from '../../functions/engine/model.ts';
import { benchArgs, corpusDir, flagValue } from '../args.ts';
import { type BenchFigure, recordResult } from '../results.ts';
import { type Consistency, consistencyOf, formatConsistency, sumConsistency } from './consistency.ts';
import {
  matchSections,
  matchSheets,
  matchViews,
  pct,
  type RegionLabels,
  type SectionLabel,
  type SectionScore,
  type SheetLabel,
  type SheetScore,
  sumSectionScores,
  sumSheetScores,
  sumViewScores,
  type ViewScore,
} from './score.ts';
import { matchRegions, type RegionPageLabels, type RegionScore, sumRegionScores } from './score-regions.ts';

const args = benchArgs;
const flag = flagValue;
const corpus = corpusDir;
const labelsDir = path.join(corpus, 'labels');
if (!existsSync(path.join(labelsDir, 'specs.json')) && !existsSync(path.join(labelsDir, 'sheets.json'))) {
  console.log(`extraction-eval: no labels at ${labelsDir} (CORPUS_DIR); skipping.`);
  process.exit(0);
}

interface SpecsFile {
  files: Record<string, { sections: SectionLabel[] }>;
}
interface SheetsFile {
  files: Record<string, { sheets?: SheetLabel[] }>;
}
/** A label file of the corpus, or none of its kind when the corpus does not hold it. */
const labelFile = <T extends { files: object }>(name: string): T =>
  existsSync(path.join(labelsDir, name))
    ? (JSON.parse(readFileSync(path.join(labelsDir, name), 'utf8')) as T)
    : ({ files: {} } as T);
const specs = labelFile<SpecsFile>('specs.json');
const sheets = labelFile<SheetsFile>('sheets.json');

const only = flag('--only');
const fileFilter = flag('--file');
const ocr = args.includes('--no-ocr') ? false : 'auto';
const verbose = args.includes('--verbose');
// --results dir keeps each file's ExtractionResult; with --rescore the eval scores those instead of extracting.
const resultsDir = flag('--results');
const fromResults = args.includes('--rescore');

// PDFs of the corpus without labels are extracted too: their drawing sets get the label-free consistency
// figures (consistency.ts).
const unlabelled = ['', 'drawings-extra']
  .flatMap((folder) =>
    existsSync(path.join(corpus, folder))
      ? readdirSync(path.join(corpus, folder))
          .filter((name) => name.toLowerCase().endsWith('.pdf'))
          .map((name) => (folder ? `${folder}/${name}` : name))
      : [],
  )
  .filter((file) => !specs.files[file] && !sheets.files[file]);
const files = [...new Set([...Object.keys(specs.files), ...Object.keys(sheets.files), ...unlabelled])]
  .filter((f) => !fileFilter || f.includes(fileFilter))
  .filter((f) => {
    if (only === 'specs') return Boolean(specs.files[f]);
    if (only === 'sheets') return Boolean(sheets.files[f]?.sheets?.length) || unlabelled.includes(f);
    return true;
  });

const sectionScores: SectionScore[] = [];
const sheetScores: SheetScore[] = [];
const viewScores: ViewScore[] = [];
const regionScores: RegionScore[] = [];
const consistency: Consistency[] = [];
const output: Record<string, unknown> = {};

for (const file of files) {
  const pdfPath = path.join(corpus, file);
  if (!existsSync(pdfPath)) {
    console.log(`${file}: missing, skipped`);
    continue;
  }
  const started = Date.now();
  const cached = resultsDir ? path.join(resultsDir, `${file.replace(/\//g, '__')}.json`) : null;
  let result: ExtractionResult;
  try {
    result =
      fromResults && cached && existsSync(cached)
        ? (JSON.parse(readFileSync(cached, 'utf8')) as ExtractionResult)
        : await extractDocument(new Uint8Array(readFileSync(pdfPath)), {
            fileName: path.basename(file),
            ocr,
          });
  } catch (error) {
    console.log(`${file}: FAILED ${(error as Error).message}`);
    continue;
  }
  if (cached && !fromResults) {
    mkdirSync(path.dirname(cached), { recursive: true });
    writeFileSync(cached, JSON.stringify(result));
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(`\n== ${file}  (${result.pageCount} pages, ${seconds.toFixed(1)} s, ${result.classification})`);
  const specLabels = specs.files[file]?.sections;
  if (specLabels && only !== 'sheets') {
    const score = matchSections(file, specLabels, result.specifications);
    sectionScores.push(score);
    console.log(
      `  sections: labeled ${score.labeled} predicted ${score.predicted} matched ${score.matched}  ` +
        `P ${pct(score.matched, score.predicted)} R ${pct(score.matched, score.labeled)} F1 ${score.f1.toFixed(3)}  ` +
        `exact range ${pct(score.exactRange, score.labeled)}  title ${pct(score.titleAgree, score.matched)}`,
    );
    for (const line of score.details.slice(0, verbose ? 1000 : 25)) console.log(`    ${line}`);
  }
  if (result.sheets.length && only !== 'specs') {
    const figures = consistencyOf(file, result);
    consistency.push(figures);
    console.log(`  consistency${sheets.files[file] ? '' : ' (unlabelled)'}: ${formatConsistency(figures)}`);
  }
  const sheetLabels = sheets.files[file]?.sheets;
  if (sheetLabels?.length && only !== 'specs') {
    const score = matchSheets(file, sheetLabels, result);
    sheetScores.push(score);
    console.log(
      `  sheets: ${score.total} labeled; number text-layer ${score.textOk}/${score.textTotal}, OCR ${score.ocrOk}/${score.ocrTotal}; ` +
        `discipline ${score.disciplineOk}/${score.total}; title ${score.titleOk}/${score.total}; ` +
        `extra sheets ${score.extraSheets}`,
    );
    for (const line of score.details.slice(0, verbose ? 1000 : 40)) console.log(`    ${line}`);
    const views = matchViews(file, sheetLabels as RegionLabels[], result);
    viewScores.push(views);
    console.log(
      `  views: ${views.viewsFound}/${views.viewsLabeled} titled views found (${views.viewsPredicted} titled view regions); ` +
        `title ${views.viewTitleOk}/${views.viewsFound}, scale ${views.viewScaleOk}/${views.viewsFound}` +
        (views.refsLabeled
          ? `; callout references ${views.refsFound}/${views.refsLabeled} found (${views.refsPredicted} distinct on those pages)`
          : ''),
    );
    for (const line of views.details.slice(0, verbose ? 1000 : 15)) console.log(`    ${line}`);
    const regions = matchRegions(file, sheetLabels as RegionPageLabels[], result);
    regionScores.push(regions);
    console.log(
      `  regions: view titles ${regions.viewTitlesFound}/${regions.viewTitlesLabeled} found by title (all printed titles); ` +
        `region boxes ${regions.boxesMatched}/${regions.boxesLabeled} with IoU >= 0.5`,
    );
    for (const line of regions.details.slice(0, verbose ? 1000 : 15)) console.log(`    ${line}`);
  }
  output[file] = {
    seconds,
    sections: sectionScores.find((s) => s.file === file),
    sheets: sheetScores.find((s) => s.file === file),
    views: viewScores.find((s) => s.file === file),
    regions: regionScores.find((s) => s.file === file),
    consistency: consistency.find((s) => s.file === file),
  };
}

// One line per file, so that a fix for one set that breaks another shows.
const ratio = (ok: number, total: number): string => (total ? `${ok}/${total}` : '-');
console.log(
  '\n== per file (sheet number text / OCR, discipline, title, titled views, references, region boxes)',
);
for (const file of files) {
  const sheet = sheetScores.find((s) => s.file === file);
  const view = viewScores.find((s) => s.file === file);
  const region = regionScores.find((s) => s.file === file);
  const section = sectionScores.find((s) => s.file === file);
  const cells = [
    sheet ? `text ${ratio(sheet.textOk, sheet.textTotal)}, OCR ${ratio(sheet.ocrOk, sheet.ocrTotal)}` : '',
    sheet
      ? `discipline ${ratio(sheet.disciplineOk, sheet.total)}, title ${ratio(sheet.titleOk, sheet.total)}`
      : '',
    view
      ? `views ${ratio(view.viewsFound, view.viewsLabeled)}, refs ${ratio(view.refsFound, view.refsLabeled)}`
      : '',
    region ? `boxes ${ratio(region.boxesMatched, region.boxesLabeled)}` : '',
    section
      ? `sections F1 ${section.f1.toFixed(3)}, exact ${ratio(section.exactRange, section.labeled)}`
      : '',
  ].filter(Boolean);
  if (cells.length)
    console.log(
      `  ${file
        .replace(/^drawings-extra\//, '')
        .slice(0, 60)
        .padEnd(60)} ${cells.join('; ')}`,
    );
}

console.log('\n== per set, label-free consistency (any set, labelled or not)');
for (const row of consistency)
  console.log(
    `  ${row.file
      .replace(/^drawings-extra\//, '')
      .slice(0, 60)
      .padEnd(60)} ${formatConsistency(row)}`,
  );
if (consistency.length)
  console.log(`  ${'all'.padEnd(60)} ${formatConsistency(sumConsistency(consistency))}`);

console.log('\n== overall (targets from issue 13)');
if (sectionScores.length) {
  const t = sumSectionScores(sectionScores);
  console.log(
    `  sections: labeled ${t.labeled} predicted ${t.predicted} matched ${t.matched}  P ${pct(t.matched, t.predicted)} ` +
      `R ${pct(t.matched, t.labeled)} F1 ${t.f1.toFixed(3)} (target >= 0.99)  exact page range ${pct(t.exactRange, t.labeled)} ` +
      `of labeled (target >= 98%), ${pct(t.exactRange, t.matched)} of matched  title ${pct(t.titleAgree, t.matched)} (target >= 98%)`,
  );
}
if (sheetScores.length) {
  const t = sumSheetScores(sheetScores);
  console.log(
    `  sheets: ${t.total}; sheet number text-layer ${t.textOk}/${t.textTotal} = ${pct(t.textOk, t.textTotal)} (target >= 97%), ` +
      `OCR ${t.ocrOk}/${t.ocrTotal} = ${pct(t.ocrOk, t.ocrTotal)} (target >= 90%); discipline ${pct(t.disciplineOk, t.total)} (target >= 97%); ` +
      `title ${pct(t.titleOk, t.total)} (target >= 90%); extra sheets ${t.extraSheets}`,
  );
}
if (viewScores.length) {
  const t = sumViewScores(viewScores);
  console.log(
    `  views: ${t.viewsFound}/${t.viewsLabeled} = ${pct(t.viewsFound, t.viewsLabeled)} of titled views found ` +
      `(target >= 85%; ${t.viewsPredicted} titled view regions predicted); title ${pct(t.viewTitleOk, t.viewsFound)}, scale ${pct(t.viewScaleOk, t.viewsFound)} of found; ` +
      `callout references ${t.refsFound}/${t.refsLabeled} = ${pct(t.refsFound, t.refsLabeled)} (target >= 95%)`,
  );
}
if (regionScores.length) {
  const t = sumRegionScores(regionScores);
  console.log(
    `  regions: view titles ${t.viewTitlesFound}/${t.viewTitlesLabeled} = ${pct(t.viewTitlesFound, t.viewTitlesLabeled)} found by title; ` +
      `region boxes ${t.boxesMatched}/${t.boxesLabeled} = ${pct(t.boxesMatched, t.boxesLabeled)} with IoU >= 0.5`,
  );
}
const jsonOut = flag('--json');
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(output, null, 2));

// The latest figures for docs/benchmarks.md, from a run over the whole labelled corpus only (a run on one
// file or one kind would replace them with a part).
const figures: BenchFigure[] = [];
if (sectionScores.length) {
  const t = sumSectionScores(sectionScores);
  figures.push({
    measure: `section numbers (${t.labeled} labeled): F1, exact page ranges`,
    result: `${t.f1.toFixed(3)}, ${pct(t.exactRange, t.labeled)}`,
    target: 'F1 >= 0.99, >= 98%',
  });
}
if (sheetScores.length) {
  const t = sumSheetScores(sheetScores);
  figures.push(
    {
      measure: `sheet numbers, text layer / OCR (${t.textTotal} + ${t.ocrTotal} labeled)`,
      result: `${t.textOk}/${t.textTotal} (${pct(t.textOk, t.textTotal)}) / ${t.ocrOk}/${t.ocrTotal} (${pct(t.ocrOk, t.ocrTotal)})`,
      target: '>= 97% / >= 90%',
    },
    {
      measure: 'discipline / title',
      result: `${pct(t.disciplineOk, t.total)} / ${pct(t.titleOk, t.total)}`,
      target: '>= 97% / >= 90%',
    },
  );
}
if (viewScores.length) {
  const t = sumViewScores(viewScores);
  figures.push({
    measure: 'titled views / callouts',
    result: `${t.viewsFound}/${t.viewsLabeled} / ${t.refsFound}/${t.refsLabeled}`,
    target: '>= 85% / >= 95%',
  });
}
if (regionScores.length) {
  const t = sumRegionScores(regionScores);
  figures.push({
    measure: 'region boxes (IoU >= 0.5)',
    result: `${t.boxesMatched}/${t.boxesLabeled} (${pct(t.boxesMatched, t.boxesLabeled)})`,
  });
}
if (only || fileFilter)
  console.log('\n(a part of the corpus: bench/results/extraction-eval.json is left as it was)');
else if (figures.length) recordResult('extraction-eval', figures);
