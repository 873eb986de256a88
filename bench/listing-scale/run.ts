/**
 * bench/listing-scale: how listings and the end-of-job recount grow with a project. One project in
 * DynamoDB Local is filled with regions and specification sections (copies of the rows the real
 * pipeline wrote for two generated PDFs, each under its own key), first to 1k regions and 100
 * sections, then to 100k regions and 10k sections. At each size it prints the p50 and p95 (after 3
 * warm-up calls) of:
 * - the first page and a late page (the 20th, 20 a page) of the regions listing, without and with
 *   filters (`regionType`, a common value; `pageNumber`, 10 matches per 1k regions, so its total
 *   counts matches that grow with the project), and of one specification's sections;
 * - for reference, the same reads as raw DynamoDB queries (DynamoDB Local itself slows down as its
 *   table grows, which real DynamoDB does not);
 * - the recount a job's end runs (`projectTotals`, one run);
 * and the ratios between the sizes (the target is at most 2x). A request that fails (a listing that
 * outlives its function's 29 s answers 503) prints `fails`.
 *
 *   npm run bench:listing-scale [-- --sizes 1000,100000] [--reps 15]
 *
 * The rows are synthetic copies, so no corpus is needed; CORPUS_DIR is not read.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drawingSheetPdf, specificationPdf } from '../../test/fixtures/pdfs.ts';
import { benchApi, createReadyProject, ingestFile } from '../local-api.ts';
import { recordResult } from '../results.ts';
import { percentile } from '../stats.ts';

const args = process.argv.slice(2);
const sizes = (args.includes('--sizes') ? String(args[args.indexOf('--sizes') + 1]) : '1000,100000')
  .split(',')
  .map(Number);
const reps = args.includes('--reps') ? Number(args[args.indexOf('--reps') + 1]) : 15;
const REGIONS_PER_FILE = 1_000;
const REGIONS_PER_PAGE = 10;

const dataDir = mkdtempSync(join(tmpdir(), 'psa-listing-scale-'));
const { stack, call } = await benchApi({
  dataDir,
  persistDynamo: false,
  orgName: 'listing-scale',
  credits: 1_000_000,
});
const { dynamo } = await import('../../functions/shared/clients.ts');
const { BatchWriteCommand, QueryCommand } = await import('@aws-sdk/lib-dynamodb');
type RegionRecord = import('../../functions/core/content/model.ts').RegionRecord;
const { entities, partitions } = await import('../../functions/adapters/dynamodb/table.ts');
const { contentStore } = await import('../../functions/shared/wiring/adapters.ts');
const { regionItem } = await import('../../functions/adapters/dynamodb/file-content-items.ts');
const TABLE = process.env.TABLE_NAME as string;

// Real rows first: one drawing sheet and one specification through the whole pipeline.
const projectId = await createReadyProject(call, 'listing scale');
const folder = mkdtempSync(join(tmpdir(), 'psa-listing-pdfs-'));
writeFileSync(join(folder, 'A-101.pdf'), await drawingSheetPdf());
writeFileSync(join(folder, 'spec.pdf'), await specificationPdf());
for (const name of ['A-101.pdf', 'spec.pdf']) await ingestFile(call, projectId, join(folder, name));

async function rowsWithPrefix(prefix: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': partitions.project(projectId), ':prefix': prefix },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}
const regionTemplates = await rowsWithPrefix(entities.region.prefix);
const sectionTemplates = (await rowsWithPrefix(entities.specSection.prefix)).filter(
  (row) => row.entity === 'specSection',
);
const facetTemplate = (await rowsWithPrefix(entities.specFacet.prefix))[0];
const documentRows = await rowsWithPrefix(entities.document.prefix);
const drawingDocument = documentRows.find((row) => row.fileId === regionTemplates[0]?.fileId);
const specDocument = documentRows.find((row) => row.fileId === sectionTemplates[0]?.fileId);
if (!drawingDocument || !specDocument) throw new Error('The pipeline wrote no document rows to copy');
const spec = sectionTemplates[0];
if (regionTemplates.length === 0 || !spec || !facetTemplate)
  throw new Error('The pipeline wrote no regions or sections to copy');
const specId = String(spec.specId);
const specFileId = String(spec.fileId);
const commonType = String(regionTemplates[0]?.regionType);

async function writeAll(items: Record<string, unknown>[]): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const chunk = chunks[next++] as Record<string, unknown>[];
      let request: Record<string, { PutRequest: { Item: Record<string, unknown> } }[]> | undefined = {
        [TABLE]: chunk.map((item) => ({ PutRequest: { Item: item } })),
      };
      while (request && Object.keys(request).length > 0) {
        const result = await dynamo.send(new BatchWriteCommand({ RequestItems: request }));
        request = result.UnprocessedItems as typeof request;
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

let regionCount = 0;
let sectionCount = 0;
const files: { documentId: string; fileId: string }[] = [];
/** Copies of the real rows, each under its own key, up to this many regions and a tenth as many sections. */
async function fillTo(regions: number): Promise<void> {
  const items: Record<string, unknown>[] = [];
  for (; regionCount < regions; regionCount++) {
    const template = regionTemplates[regionCount % regionTemplates.length] as Record<string, unknown>;
    const fileNumber = String(Math.floor(regionCount / REGIONS_PER_FILE)).padStart(21, '0');
    const fileId = `fil_scale${fileNumber}`;
    const page = Math.floor((regionCount % REGIONS_PER_FILE) / REGIONS_PER_PAGE) + 1;
    const index = regionCount % REGIONS_PER_PAGE;
    const { pk: _pk, sk: _sk, gsi3pk: _a, gsi3sk: _b, gsi4pk: _c, gsi4sk: _d, ...record } = template;
    items.push(
      regionItem(projectId, {
        ...(record as unknown as RegionRecord),
        fileId,
        pageNumber: page,
        regionIndex: index,
        regionId: `reg_${fileId.slice(4)}_${page}_${index}`,
        sheetId: `sht_${fileId.slice(4)}_${page}`,
      }),
    );
    // Each synthetic file has its document row, as the pipeline writes one per file.
    if (regionCount % REGIONS_PER_FILE === 0) {
      const documentId = `doc_scale${fileNumber}`;
      const {
        contentSummary: _s,
        gsi1pk: _g,
        gsi1sk: _h,
        ...document
      } = drawingDocument as Record<string, unknown>;
      items.push({ ...document, ...entities.document.key(projectId, documentId), documentId, fileId });
      files.push({ documentId, fileId });
    }
  }
  const base = sectionTemplates.length;
  for (; sectionCount < regions / 10; sectionCount++) {
    const template = sectionTemplates[sectionCount % base] as Record<string, unknown>;
    const index = base + sectionCount;
    items.push({
      ...template,
      ...entities.specSection.key(projectId, specFileId, index),
      sectionIndex: index,
      specificationId: `${String(template.specificationId)}_${index}`,
    });
    items.push({
      ...facetTemplate,
      ...entities.specFacet.key(projectId, specFileId, index, 0),
      facetIndex: 0,
    });
  }
  await writeAll(items);
  // The pipeline writes a file's summary with its rows; the copies get theirs the same way.
  for (const file of [
    ...files.splice(0),
    { documentId: String(specDocument?.documentId), fileId: specFileId },
  ])
    await contentStore().recountFile(projectId, file.documentId, file.fileId);
}

/** p50 and p95 of a measure, in ms; Infinity for a request that failed. */
interface Stat {
  p50: number;
  p95: number;
}
const FAILED: Stat = { p50: Number.POSITIVE_INFINITY, p95: Number.POSITIVE_INFINITY };
/** Calls before the timed ones: the first reads after a bulk write are slower in DynamoDB Local. */
const WARM_UP = 3;

/** p50 and p95 of `reps` runs of `run`, after the warm-up runs. */
async function sampled(run: () => Promise<unknown>): Promise<Stat> {
  const samples: number[] = [];
  for (let i = -WARM_UP; i < reps; i++) {
    const started = performance.now();
    await run();
    if (i >= 0) samples.push(performance.now() - started);
  }
  return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) };
}

/** A GET through the API; fails (a listing that outlives its function answers 503) print and count as Infinity. */
async function timed(path: string | null): Promise<Stat> {
  if (path === null) return FAILED;
  return sampled(() => call(path)).catch((error: Error) => {
    console.log(`  ${path.replace(/\?.*/, '')}: ${error.message.slice(0, 160)}`);
    return FAILED;
  });
}
/** The path of the 20th page (or the last, when there are fewer), reached through the cursors; null when a page fails. */
async function latePage(path: string): Promise<string | null> {
  let current = path;
  for (let page = 1; page < 20; page++) {
    const body = (await call(current).catch(() => null)) as { nextCursor: string | null } | null;
    if (!body) return null;
    if (!body.nextCursor) break;
    current = `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(body.nextCursor)}`;
  }
  return current;
}

/** A raw DynamoDB query of `limit` rows of a key prefix after skipping `skip` rows: the store's own floor. */
async function rawRows(prefix: string, limit: number, skip: number): Promise<Stat> {
  const query = (start?: Record<string, unknown>, size = limit) =>
    dynamo.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': partitions.project(projectId), ':prefix': prefix },
        Limit: size,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
  const skipped = skip > 0 ? (await query(undefined, skip)).LastEvaluatedKey : undefined;
  return sampled(() => query(skipped));
}

const regionsPath = `/api/open/v1/projects/${projectId}/regions?limit=100`;
// Late pages at 20 a page, so the smallest project (1k regions) still has 50 full pages.
const lateRegionsPath = `/api/open/v1/projects/${projectId}/regions?limit=20`;
const sectionsPath = `/api/open/v1/projects/${projectId}/specifications/${specId}/sections?limit=20`;
// Late pages at 5 a page, so the smallest project (about 100 sections) still has 20 full pages.
const lateSectionsPath = `/api/open/v1/projects/${projectId}/specifications/${specId}/sections?limit=5`;
const measures: [string, (size: number) => Promise<Stat>][] = [
  ['regions, first page', () => timed(regionsPath)],
  ['reference: raw DynamoDB query, 100 region rows', () => rawRows(entities.region.prefix, 100, 0)],
  ['reference: raw DynamoDB query, 20 rows after 380', () => rawRows(entities.region.prefix, 20, 380)],
  ['regions, 20th page (20 a page)', async () => timed(await latePage(lateRegionsPath))],
  [`regions, regionType=${commonType}, first page`, () => timed(`${regionsPath}&regionType=${commonType}`)],
  [
    'regions, pageNumber=7 (10 matches per 1k regions), first page',
    () => timed(`${regionsPath}&pageNumber=7`),
  ],
  ['sections of one specification, first page', () => timed(sectionsPath)],
  [
    'reference: raw DynamoDB query, 20 section rows',
    () => rawRows(`${entities.specSection.prefix}${specFileId}#`, 20, 0),
  ],
  [
    'sections of one specification, 20th page (5 a page)',
    async () => timed(await latePage(lateSectionsPath)),
  ],
  [
    'end-of-job recount (projectTotals), one run',
    async () => {
      // Once: at 100k regions one recount takes minutes in DynamoDB Local.
      const started = performance.now();
      await contentStore().projectTotals(projectId);
      const elapsed = performance.now() - started;
      return { p50: elapsed, p95: elapsed };
    },
  ],
];

const results = new Map<string, Stat[]>();
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : 'fails');
for (const size of sizes) {
  const started = performance.now();
  await fillTo(size);
  console.log(
    `${regionCount} regions and ${sectionCount} sections written in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  for (const [name, measure] of measures) {
    const value = await measure(size);
    results.set(name, [...(results.get(name) ?? []), value]);
    console.log(`  ${name}: p50 ${ms(value.p50)} ms, p95 ${ms(value.p95)} ms`);
  }
}

const ratioOf = (values: Stat[], key: keyof Stat) => {
  const ratio = ((values[values.length - 1] as Stat)[key] as number) / ((values[0] as Stat)[key] as number);
  return `${Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : '–'}${ratio > 2 ? ' (over 2x)' : ''}`;
};
console.log(
  `\n| measure (ms, p50 / p95) | ${sizes.map((size) => `${size} regions`).join(' | ')} | ratio p50 | ratio p95 |`,
);
console.log(`|---|${sizes.map(() => '---|').join('')}---|---|`);
for (const [name, values] of results) {
  console.log(
    `| ${name} | ${values.map((value) => `${ms(value.p50)} / ${ms(value.p95)}`).join(' | ')} | ${ratioOf(values, 'p50')} | ${ratioOf(values, 'p95')} |`,
  );
}
console.log('target: no figure grows by more than 2x from the smallest to the largest project');
recordResult(
  'listing-scale',
  [...results].map(([name, values]) => ({
    measure: `${name}, p50 / p95 ms at ${sizes.join(' → ')} regions`,
    result: `${values.map((value) => `${ms(value.p50)} / ${ms(value.p95)}`).join(' → ')} (ratio ${ratioOf(values, 'p50')} / ${ratioOf(values, 'p95')})`,
    target: '<= 2x',
  })),
);

await stack.stop();
rmSync(dataDir, { recursive: true, force: true });
rmSync(folder, { recursive: true, force: true });
process.exit(0);
