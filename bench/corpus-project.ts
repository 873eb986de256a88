import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { benchApi, createReadyProject, ingestFile } from './local-api.ts';
import { labelledQueries } from './search-eval/queries.ts';

/**
 * The labeled corpus ingested into one project of a persisted local stack, shared by the benches
 * that ask it things (search-eval, review-eval): cached in `bench/out/corpus-project/` and rebuilt
 * when the corpus files or what decides the index's contents change (extraction, pipeline, analyzer,
 * passages, embedder, index adapter).
 */

const ROOT = resolve(import.meta.dirname ?? '.', '..');
const CACHE = join(ROOT, 'bench/out/corpus-project');

function fingerprint(corpus: string, fileNames: string[]): string {
  const hash = createHash('sha256');
  hash.update(`embedder:${process.env.EMBEDDER ?? 'local'}\n`);
  for (const name of fileNames) hash.update(`${name}:${readFileSync(join(corpus, name)).length}\n`);
  // Every file of the engine and the pipeline, in their subfolders too (the engine's io/).
  for (const folder of ['functions/engine', 'functions/core/pipeline']) {
    for (const entry of (readdirSync(join(ROOT, folder), { recursive: true }) as string[]).sort()) {
      const path = join(ROOT, folder, entry);
      if (statSync(path).isFile()) hash.update(readFileSync(path));
    }
  }
  for (const file of [
    'functions/core/search/analyzer.ts',
    'functions/core/search/construction-terms.json',
    'functions/core/search/sources.ts',
    'functions/core/search/index-file.ts',
    'functions/adapters/embeddings/word-vector-embedder.ts',
    'functions/adapters/index/lancedb-source-index.ts',
    'functions/adapters/index/lancedb-rows.ts',
  ])
    hash.update(readFileSync(join(ROOT, file)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Every corpus file the labels of the asking benches name (the targets of the labelled queries, shared
 * and held out; questions.json citations), checked to exist: one ingested project serves both benches.
 */
export function labeledFiles(corpus: string): string[] {
  const names: string[] = labelledQueries(corpus).flatMap((query) =>
    query.targets.map((target) => target.file),
  );
  const questions = join(corpus, 'labels/questions.json');
  if (existsSync(questions))
    for (const question of JSON.parse(readFileSync(questions, 'utf8')).questions as {
      citations: { file: string }[];
    }[])
      names.push(...question.citations.map((citation) => citation.file));
  const files = [...new Set(names)].sort();
  const missing = files.filter((name) => !existsSync(join(corpus, name)));
  if (missing.length > 0)
    throw new Error(`Corpus files named by the labels are missing: ${missing.join(', ')}`);
  return files;
}

export async function corpusProject(options: { corpus: string; fresh: boolean; orgName: string }) {
  const fileNames = labeledFiles(options.corpus);
  const stateFile = join(CACHE, 'state.json');
  const wanted = fingerprint(options.corpus, fileNames);
  let state: { fingerprint: string; orgId: string; projectId: string; files: string[] } | null = existsSync(
    stateFile,
  )
    ? JSON.parse(readFileSync(stateFile, 'utf8'))
    : null;
  // Labels that name other files: start over.
  const sameFiles = JSON.stringify(state?.files ?? []) === JSON.stringify(fileNames);
  if (options.fresh || state?.fingerprint !== wanted || !sameFiles) {
    rmSync(CACHE, { recursive: true, force: true });
    state = null;
  }
  mkdirSync(CACHE, { recursive: true });
  const api = await benchApi({
    dataDir: join(CACHE, 'data'),
    persistDynamo: true,
    ...(state ? { orgId: state.orgId } : {}),
    orgName: options.orgName,
    credits: 100_000_000,
  });
  let projectId = state?.projectId;
  if (!projectId) {
    projectId = await createReadyProject(api.call, `corpus ${wanted}`);
    const started = performance.now();
    for (const name of fileNames) {
      const { job, seconds } = await ingestFile(api.call, projectId, join(options.corpus, name));
      console.log(`ingested ${name}: ${job.status}, ${job.pageCount} pages in ${seconds.toFixed(1)} s`);
    }
    console.log(`corpus ingested in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  writeFileSync(
    stateFile,
    JSON.stringify({ fingerprint: wanted, orgId: api.orgId, projectId, files: fileNames }),
  );
  return { ...api, projectId, fileNames };
}
