/**
 * bench/search-sizing: what the search and indexing functions need, measured with the index on S3
 * (the local S3 emulator, as on AWS an index is an S3 prefix), not on a local folder.
 *
 *   npm run bench:search-sizing [-- --sizes 5000,20000,50000] [--queries 20] [--projects 30]
 *
 * For each size (rows of one project, written 2,000 a file as indexing does): the time, peak RSS and
 * peak bytes under TMPDIR of writing a file and of building the IVF-PQ index (IndexFile's memory and
 * /tmp); a semantic query with the vector column scanned exactly (below the vector-index threshold)
 * and with the index: the first query's time and the bytes it reads from S3 (a proxy in front of the
 * emulator counts them: what a cold function pays on AWS), then the p50 and bytes of the later ones. Queries run in a fresh process per phase, as a search function
 * would, which reports its RSS before opening anything and its peak: the search functions' memory.
 * Then `--projects` small projects opened one after another in one process (a project search): the
 * RSS after each ten (the open-project cache's bound). The S3 emulator runs in a process of its own.
 * Vectors are random unit vectors of the deployed dimension (512): sizes and latencies, not ranking.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LanceSourceIndex } from '../../functions/adapters/index/lancedb-source-index.ts';
import { ANALYZER_VERSION } from '../../functions/core/search/analyzer.ts';
import terms from '../../functions/core/search/construction-terms.json' with { type: 'json' };
import type { IndexedPassage } from '../../functions/core/search/ports.ts';
import { startS3 } from '../../local/emulators/s3.ts';
import { percentile } from '../stats.ts';
import { syntheticRegionPassage } from '../synthetic-passage.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) =>
  args.includes(name) ? String(args[args.indexOf(name) + 1]) : fallback;
const DIMENSION = 512;
const PER_FILE = 2_000;
const BUCKET = 'psa-bench-index';
const MB = 2 ** 20;
const build = { embedder: 'bench-random', dimension: DIMENSION, analyzer: ANALYZER_VERSION };

let seed = 20261127;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const words = [...new Set(terms.abbreviations.flatMap((row) => row.join(' ').split(' ')))].filter(
  (word) => word.length > 2,
);
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
const unitVector = () => {
  const values = Array.from({ length: DIMENSION }, () => random() - 0.5);
  const norm = Math.hypot(...values);
  return values.map((value) => value / norm);
};

const storageOptionsFor = (endpoint: string) => ({
  endpoint,
  allow_http: 'true',
  aws_access_key_id: 'S3RVER',
  aws_secret_access_key: 'S3RVER',
  region: 'us-east-1',
  virtual_hosted_style_request: 'false',
});

function passages(projectId: string, fileNumber: number, count: number): IndexedPassage[] {
  return Array.from({ length: count }, (_, i) => {
    const text = Array.from({ length: 60 }, () => pick(words)).join(' ');
    const sheet = `A-${100 + (i % 800)}`;
    return {
      ...syntheticRegionPassage(projectId, fileNumber, i, { sheet, head: sheet, text, regionType: 'notes' }),
      sheetKey: sheet.replace('-', ''),
      headTokens: sheet.toLowerCase(),
      bodyTokens: text.toLowerCase(),
      vector: unitVector(),
    } as IndexedPassage;
  });
}

/** Runs `work` sampling this process's RSS (and the bytes under `scratch`) every 50 ms: the peaks and the time. */
async function sampled<T>(work: () => Promise<T>, scratch?: string) {
  const bytesUnder = (path: string): number => {
    try {
      const stat = statSync(path);
      if (!stat.isDirectory()) return stat.size;
      return readdirSync(path).reduce((sum, entry) => sum + bytesUnder(join(path, entry)), 0);
    } catch {
      return 0; // a file removed while it was counted
    }
  };
  let rss = process.memoryUsage().rss;
  let tmp = scratch ? bytesUnder(scratch) : 0;
  const timer = setInterval(() => {
    rss = Math.max(rss, process.memoryUsage().rss);
    if (scratch) tmp = Math.max(tmp, bytesUnder(scratch));
  }, 50);
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  clearInterval(timer);
  return { result, ms, rssMb: Math.max(rss, process.memoryUsage().rss) / MB, tmpMb: tmp / MB };
}

/** The child process that serves S3, or runs one measured phase and prints its JSON result. */
async function child(mode: string) {
  if (mode === '--serve-s3') {
    const s3 = await startS3({ dataDir: String(args[1]), buckets: [BUCKET] });
    // In front of it, a proxy that counts what readers fetch (GET /__stats answers the counts so far).
    const target = new URL(s3.endpoint);
    const counted = { requests: 0, bytes: 0 };
    const proxy = createServer((incoming, response) => {
      if (incoming.url === '/__stats') {
        response.end(JSON.stringify(counted));
        return;
      }
      const forwarded = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (answer) => {
          counted.requests++;
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.on('data', (chunk: Buffer) => {
            if (incoming.method === 'GET') counted.bytes += chunk.length;
          });
          answer.pipe(response);
        },
      );
      incoming.pipe(forwarded);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    process.stdout.write(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}\n`);
    process.stdin.resume();
    process.stdin.on('end', () => void s3.stop().then(() => process.exit(0)));
    return;
  }
  const [endpoint, count, ...locations] = args.slice(1);
  const baseMb = process.memoryUsage().rss / MB;
  const index = new LanceSourceIndex({ storageOptions: storageOptionsFor(String(endpoint)) });
  if (mode === '--queries') {
    const location = String(locations[0]);
    const queries = Array.from({ length: Number(count) }, unitVector);
    const times: number[] = [];
    const stats = async () =>
      (await (await fetch(`${endpoint}/__stats`)).json()) as { requests: number; bytes: number };
    // The table opened first (a search opens it before it queries), so the first query reads only its data.
    await index.size(location);
    const opened = await stats();
    let firstQuery = opened;
    const run = await sampled(async () => {
      for (const vector of queries) {
        const started = performance.now();
        await index.nearest(location, vector, {}, 20);
        times.push(performance.now() - started);
        if (times.length === 1) firstQuery = await stats();
      }
    });
    const all = await stats();
    const p = (q: number) => Math.round(percentile(times, q));
    process.stdout.write(
      `${JSON.stringify({
        baseMb,
        peakMb: run.rssMb,
        first: Math.round(times[0] ?? 0),
        p50: p(0.5),
        firstMb: (firstQuery.bytes - opened.bytes) / MB,
        firstRequests: firstQuery.requests - opened.requests,
        laterMb: (all.bytes - firstQuery.bytes) / MB / Math.max(1, times.length - 1),
      })}\n`,
    );
  } else {
    const after: number[] = [];
    const run = await sampled(async () => {
      for (const [position, location] of locations.entries()) {
        await index.lexical(location, { terms: [pick(words).toLowerCase()], phrases: [] }, {}, 20);
        await index.nearest(location, unitVector(), {}, 20);
        if ((position + 1) % 10 === 0) after.push(Math.round(process.memoryUsage().rss / MB));
      }
    });
    process.stdout.write(
      `${JSON.stringify({ baseMb, peakMb: run.rssMb, after, open: index.openConnections })}\n`,
    );
  }
  process.exit(0);
}

/** Starts this file in a child process with `childArgs`; its first output line, and a way to end it. */
async function spawnSelf(childArgs: string[]) {
  const started = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), ...childArgs],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    let output = '';
    started.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve(output.slice(0, output.indexOf('\n')));
    });
    started.once('exit', (code) => reject(new Error(`${childArgs[0]} exited (${code})`)));
  });
  return { line, end: () => started.stdin.end() };
}

async function measure() {
  const sizes = option('--sizes', '5000,20000,50000').split(',').map(Number);
  const queryCount = Number(option('--queries', '20'));
  const projectCount = Number(option('--projects', '30'));
  const root = mkdtempSync(join(tmpdir(), 'psa-search-sizing-'));
  // LanceDB spills index builds under the process's temporary directory: give it one of its own to weigh.
  const scratch = join(root, 'tmp');
  mkdirSync(scratch);
  process.env.TMPDIR = scratch;
  const s3 = await spawnSelf(['--serve-s3', join(root, 's3')]);
  const endpoint = s3.line;
  const storageOptions = storageOptionsFor(endpoint);
  const queries = async (location: string) =>
    JSON.parse((await spawnSelf(['--queries', endpoint, String(queryCount), location])).line) as {
      baseMb: number;
      peakMb: number;
      first: number;
      p50: number;
      firstMb: number;
      firstRequests: number;
      laterMb: number;
    };
  const line = (q: Awaited<ReturnType<typeof queries>>) =>
    `${q.first} / ${q.p50}, ${q.firstMb.toFixed(1)} MB in ${q.firstRequests} GETs / ${q.laterMb.toFixed(1)} MB, ${mb(q.baseMb)} / ${mb(q.peakMb)}`;
  const mb = (value: number) => value.toFixed(0);

  console.log(`search-sizing: index on the S3 emulator, ${DIMENSION} dimensions, node ${process.version}\n`);
  console.log(
    '| rows | write a 2,000-row file: ms / peak RSS MB / peak TMPDIR MB | IVF-PQ build: ms / peak RSS MB / peak TMPDIR MB | exact scan: first / p50 ms, read from S3 by the first query / each later one, search process RSS at start / peak MB | IVF-PQ: the same |',
  );
  console.log('|---|---|---|---|---|');
  for (const size of sizes) {
    // Each size in its own project, written with the threshold out of reach, then indexed by hand.
    const location = `s3://${BUCKET}/projects/size-${size}`;
    const index = new LanceSourceIndex({ storageOptions, vectorIndexMinRows: Number.POSITIVE_INFINITY });
    let write = { ms: 0, rssMb: 0, tmpMb: 0 };
    for (let file = 0; file * PER_FILE < size; file++) {
      const rows = passages(`size-${size}`, file, Math.min(PER_FILE, size - file * PER_FILE));
      write = await sampled(() => index.replaceFile(location, build, rows[0]?.fileId ?? '', rows), scratch);
    }
    const exact = await queries(location);
    const ivf = await sampled(() => index.buildVectorIndex(location, DIMENSION), scratch);
    const approximate = await queries(location);
    console.log(
      `| ${size} | ${mb(write.ms)} / ${mb(write.rssMb)} / ${mb(write.tmpMb)} | ${mb(ivf.ms)} / ${mb(ivf.rssMb)} / ${mb(ivf.tmpMb)} | ${line(exact)} | ${line(approximate)} |`,
    );
  }

  // A project search opens one project after another: what each open project costs a process.
  const writer = new LanceSourceIndex({ storageOptions });
  const locations: string[] = [];
  for (let project = 0; project < projectCount; project++) {
    const location = `s3://${BUCKET}/projects/many-${project}`;
    const rows = passages(`many-${project}`, project, 2_000);
    await writer.replaceFile(location, build, rows[0]?.fileId ?? '', rows);
    locations.push(location);
  }
  const opened = JSON.parse((await spawnSelf(['--projects', endpoint, '0', ...locations])).line) as {
    baseMb: number;
    peakMb: number;
    after: number[];
    open: number;
  };
  console.log(
    `\n${projectCount} projects of 2,000 rows, each searched (lexical and semantic) in one process: RSS ${mb(opened.baseMb)} MB at start, ${opened.after.map((rss, i) => `${mb(rss)} MB after ${(i + 1) * 10}`).join(', ')}, peak ${mb(opened.peakMb)} MB; ${opened.open} projects held open.`,
  );
  s3.end();
  rmSync(root, { recursive: true, force: true });
}

if (args[0]?.startsWith('--serve-s3') || args[0] === '--queries' || args[0] === '--projects')
  await child(args[0]);
else await measure();
