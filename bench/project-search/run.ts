/**
 * bench/project-search: an organization with few, then hundreds of projects, each with a small index
 * of synthetic passages; reports p50/p95 of `POST /projects/search` through the local API beside a
 * source search of one project (the unit of its fan-out) and the API's floor, in the same run, and
 * the ratio of project search at the largest size to the smallest. Project search must stay fast as
 * an organization grows: its source fan-out is bounded (PROJECT_SEARCH_FANOUT, docs/decisions.md).
 *
 *   npm run bench:project-search [-- --sizes 10,200] [--queries 40] [--passages 300]
 *
 * The passages are synthetic (no corpus needed); CORPUS_DIR is not read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchApi, createReadyProject } from '../local-api.ts';
import { type BenchFigure, recordResult } from '../results.ts';
import { percentile } from '../stats.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) =>
  args.includes(name) ? String(args[args.indexOf(name) + 1]) : fallback;
const sizes = option('--sizes', '10,200').split(',').map(Number);
const queryCount = Number(option('--queries', '40'));
const passagesPerProject = Number(option('--passages', '300'));

const dataDir = mkdtempSync(join(tmpdir(), 'psa-project-search-'));
const { stack, orgId, call } = await benchApi({
  dataDir,
  persistDynamo: false,
  orgName: 'project-search',
  credits: 1_000_000,
  plan: 'enterprise',
});
const { projectStore } = await import('../../functions/shared/wiring/adapters.ts');
const { PROJECT_SEARCH_FANOUT } = await import('../../functions/core/search/search-projects.ts');
const { indexSyntheticFile, syntheticQueries, pick, vocabulary } = await import('../synthetic-index.ts');

const projectIds: string[] = [];
async function grow(total: number) {
  while (projectIds.length < total) {
    const number = projectIds.length;
    const projectId = await createReadyProject(call, `${pick(vocabulary)} ${pick(vocabulary)} ${number}`);
    const location = (await projectStore().get(orgId, projectId))?.indexLocation as string;
    await indexSyntheticFile({ projectId, location, fileNumber: number, passages: passagesPerProject });
    projectIds.push(projectId);
  }
}

const queries = syntheticQueries(queryCount);
const results: { size: number; search: number[] }[] = [];
const figures: BenchFigure[] = [];
for (const size of sizes) {
  const started = performance.now();
  await grow(size);
  const loadSeconds = (performance.now() - started) / 1000;
  const one = projectIds[0] as string;
  for (const query of queries.slice(0, 5)) await call('/api/open/v1/projects/search', 'POST', { query });
  const search: number[] = [];
  const single: number[] = [];
  const floor: number[] = [];
  let truncated = 0;
  for (const query of queries) {
    let t = performance.now();
    const reply = await call('/api/open/v1/projects/search', 'POST', { query, limit: 20 });
    search.push(performance.now() - t);
    if ((reply.warnings as { code: string }[]).some((warning) => warning.code === 'source_search_truncated'))
      truncated++;
    t = performance.now();
    await call(`/api/open/v1/projects/${one}/source-search`, 'POST', { query, maxHits: 3 });
    single.push(performance.now() - t);
    t = performance.now();
    await call(`/api/open/v1/projects/${one}`);
    floor.push(performance.now() - t);
  }
  results.push({ size, search });
  const f = (values: number[]) =>
    `p50 ${percentile(values, 0.5).toFixed(1)} / p95 ${percentile(values, 0.95).toFixed(1)} ms`;
  const summary =
    `${size} projects of ${passagesPerProject} passages (loaded in ${loadSeconds.toFixed(0)} s): project search ${f(search)}; ` +
    `one project's source search ${f(single)} (project search p95 / it: ${(percentile(search, 0.95) / percentile(single, 0.95)).toFixed(2)}x); ` +
    `the API's floor ${f(floor)}; ${truncated}/${queries.length} answers warned source_search_truncated (fan-out ${PROJECT_SEARCH_FANOUT})`;
  console.log(summary);
  figures.push({ measure: `${size} projects`, result: summary.slice(summary.indexOf(': ') + 2) });
}
const first = results[0];
const last = results[results.length - 1];
if (first && last && last !== first)
  console.log(
    `project search p95 from ${first.size} to ${last.size} projects: ${(percentile(last.search, 0.95) / percentile(first.search, 0.95)).toFixed(2)}x`,
  );

recordResult('project-search', figures);
await stack.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
