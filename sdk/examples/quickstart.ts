import { createClient, PsaApiError, PsaFileCheckError, PsaTimeoutError } from '@project-source/sdk/node';

const apiKey = process.env.PSA_API_KEY;
if (!apiKey) throw new Error('Set PSA_API_KEY to a key printed by npm start.');
const psa = createClient({ baseUrl: process.env.PSA_API_URL ?? 'http://127.0.0.1:3000', apiKey });

try {
  // Projects: create, then wait until it is provisioned (polls every 10 s, PsaTimeoutError after 5 min).
  const { project } = await psa.projects.create('Camilla Gymnasium');
  await psa.waitForProject(project.id);

  // Upload: files are checked first (PsaFileCheckError), then hashed, registered, sent and completed.
  const job = await psa.jobs.create(project.id, { displayName: 'Bid set' });
  const uploaded = await psa.uploadFiles(job.id, ['./bid-set'], {
    concurrency: 4,
    onProgress: (event) => console.log(event.fileName, event.status, event.bytesSent, '/', event.bytesTotal),
  });
  console.log(`${uploaded.files.length} files completed, ${uploaded.skipped.length} already held`);
  const done = await psa.waitForJob(job.id);
  console.log(done.status, `${done.successfulPageCount}/${done.pageCount} pages`);

  // Pagination: every list method is an async iterator that fetches the next page as you read.
  for await (const sheet of psa.sheets.list(project.id, { limit: 50 })) console.log(sheet.sheetNumber);
  for await (const region of psa.regions.list(project.id, { regionType: 'schedule' }))
    console.log(region.label);

  // Search, then read what a hit points at (its text, pages and artifacts such as the crop PNG).
  const found = await psa.sources.search(project.id, { query: 'gypsum board', maxHits: 5 });
  const first = found.hits[0];
  if (first) {
    const source = await psa.sources.read(project.id, first.sourceCatalogUri);
    console.log(
      source.source.label,
      source.artifacts.map((artifact) => artifact.type),
    );
  }

  // Reviews: ask, then stream the answer as it is written (resumed across drops, ends at the terminal event).
  const review = await psa.reviews.create(project.id, 'Bid questions');
  const execution = await psa.reviews.ask(project.id, review.id, 'Who pays the permit fees?');
  for await (const event of psa.streamExecution(execution)) {
    if (event.type === 'response.text.delta') process.stdout.write(event.payload.delta);
    if (event.type === 'citation') console.log(`\n[${event.payload.sourceCatalogUri}]`);
    if (event.type === 'response.error') console.error(event.payload.code, event.payload.message);
  }
} catch (error) {
  // Errors: the API's envelope as PsaApiError; 429 and 5xx of safe calls were already retried.
  if (error instanceof PsaApiError) console.error(error.status, error.code, error.message, error.requestId);
  else if (error instanceof PsaFileCheckError) console.error(error.problems);
  else if (error instanceof PsaTimeoutError) console.error('still not done:', error.message);
  else throw error;
  process.exitCode = 1;
}
