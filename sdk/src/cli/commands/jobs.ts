import cliProgress from 'cli-progress';
import { expandPaths, type PsaNodeClient } from '../../node.ts';
import type { Job } from '../../types.ts';
import type { UploadProgressEvent, UploadState } from '../../upload.ts';
import { clearUploadState, loadUploadState, saveUploadState } from '../config.ts';

const MiB = 1024 * 1024;
const mib = (bytes: number) => (bytes / MiB).toFixed(1);
const interactive = (json: boolean) => !json && Boolean(process.stderr.isTTY);
const note = (json: boolean, line: string) => {
  if (!json) process.stderr.write(`${line}\n`);
};

/** Job progress in pages: a bar on a terminal, a line per change otherwise; the ended job is returned. */
export async function watchJob(
  psa: PsaNodeClient,
  jobId: string,
  options: { json: boolean; intervalMs?: number },
): Promise<Job> {
  const bar = interactive(options.json)
    ? new cliProgress.SingleBar(
        {
          format: 'pages   {bar} {percentage}% | {value}/{total} pages | {phase} {message}',
          hideCursor: true,
        },
        cliProgress.Presets.shades_classic,
      )
    : null;
  let started = false;
  let last = '';
  const job = await psa.waitForJob(jobId, {
    intervalMs: options.intervalMs ?? 2_000,
    onPoll: (polled) => {
      const { processedPages, totalPages, percent, phase, message } = polled.progress;
      if (bar) {
        if (!started) bar.start(Math.max(totalPages, 1), processedPages, { phase, message });
        started = true;
        bar.setTotal(Math.max(totalPages, 1));
        bar.update(processedPages, { phase, message });
        return;
      }
      const line = `${polled.id} ${polled.status} ${percent}% ${processedPages}/${totalPages} pages ${phase}: ${message}`;
      if (line !== last) note(options.json, line);
      last = line;
    },
  });
  bar?.stop();
  const summary =
    `${job.id} ${job.status}: ${job.successfulPageCount}/${job.pageCount} pages` +
    (job.error ? ` (${job.error.code}: ${job.error.message})` : '');
  if (options.json) process.stdout.write(`${JSON.stringify({ job }, null, 2)}\n`);
  else process.stdout.write(`${summary}\n`);
  return job;
}

/**
 * `psa upload`: the files are checked first (each exists and is a PDF), so a typo creates nothing; then
 * a job (new, or `--job` to resume one), then every file with a progress bar per file and
 * one overall, in bytes; the upload state is saved after every acknowledged part, so running the same
 * command with `--job` after an interruption sends only what storage has not acknowledged.
 */
export async function uploadFolder(
  psa: PsaNodeClient,
  options: {
    projectId: string;
    paths: string[];
    jobId: string | undefined;
    displayName: string;
    concurrency: number;
    watch: boolean;
    json: boolean;
  },
): Promise<void> {
  const files = await expandPaths(options.paths);
  const job = options.jobId
    ? await psa.jobs.get(options.jobId)
    : await psa.jobs.create(options.projectId, {
        displayName: options.displayName,
      });
  if (job.projectId !== options.projectId)
    throw new Error(`Job ${job.id} belongs to project ${job.projectId}.`);
  note(options.json, `${options.jobId ? 'Resuming' : 'Created'} job ${job.id}`);
  const saved = loadUploadState(job.id) as UploadState | undefined;

  const multibar = interactive(options.json)
    ? new cliProgress.MultiBar(
        {
          format: '{name} {bar} {percentage}% | {sent}/{size} MiB | {status}',
          hideCursor: true,
          clearOnComplete: false,
        },
        cliProgress.Presets.shades_classic,
      )
    : null;
  const sizes = new Map<string, number>();
  const bars = new Map<string, cliProgress.SingleBar>();
  const sentBytes = new Map<string, number>();
  let overall: cliProgress.SingleBar | null = null;
  const totalBytes = () => [...sizes.values()].reduce((sum, size) => sum + size, 0);
  const sentTotal = () => [...sentBytes.values()].reduce((sum, sent) => sum + sent, 0);
  const width = () => Math.max(8, ...[...sizes.keys()].map((name) => name.length));

  const onProgress = (event: UploadProgressEvent) => {
    sentBytes.set(event.fileName, event.bytesSent);
    if (multibar) {
      overall ??= multibar.create(Math.max(totalBytes(), 1), 0, {
        name: 'overall'.padEnd(width()),
        status: '',
        sent: '0',
        size: mib(totalBytes()),
      });
      let bar = bars.get(event.fileName);
      if (!bar) {
        bar = multibar.create(Math.max(event.bytesTotal, 1), 0, {
          name: event.fileName.padEnd(width()),
          size: mib(event.bytesTotal),
        });
        bars.set(event.fileName, bar);
      }
      bar.update(event.bytesSent, { status: event.error ?? event.status, sent: mib(event.bytesSent) });
      overall.update(sentTotal(), { sent: mib(sentTotal()), status: `${bars.size}/${sizes.size} files` });
    } else if (['uploaded', 'skipped', 'completed', 'failed'].includes(event.status)) {
      note(
        options.json,
        `${event.fileName}: ${event.status} ${mib(event.bytesSent)}/${mib(event.bytesTotal)} MiB${event.error ? ` (${event.error})` : ''}`,
      );
    }
  };

  let result: Awaited<ReturnType<PsaNodeClient['uploadFiles']>>;
  try {
    result = await psa.uploadFiles(job.id, files, {
      concurrency: options.concurrency,
      state: saved,
      onState: (state) => saveUploadState(job.id, state),
      onHashed: (name, size) => {
        sizes.set(name, size);
        if (!multibar) note(options.json, `hashed ${name} (${mib(size)} MiB)`);
      },
      onProgress,
    });
  } catch (error) {
    multibar?.stop();
    process.stderr.write(
      `The upload was interrupted; run the same command with --job ${job.id} to resume it.\n`,
    );
    throw error;
  }
  multibar?.stop();
  clearUploadState(job.id);
  const failed = result.files.filter((file) => file.error !== null);
  for (const file of failed) {
    process.stderr.write(`${file.documentId}: ${file.status} ${file.error?.code}: ${file.error?.message}\n`);
  }
  note(
    options.json,
    `Uploaded ${result.files.length - failed.length} of ${result.files.length} files (${mib(totalBytes())} MiB)` +
      (result.skipped.length ? `; ${result.skipped.length} already in the project` : ''),
  );
  if (failed.length) process.exitCode = 1;
  if (!options.watch) {
    if (options.json)
      process.stdout.write(`${JSON.stringify({ job: result.job, files: result.files }, null, 2)}\n`);
    else process.stdout.write(`${result.job.id} ${result.job.status}\n`);
    return;
  }
  const ended = await watchJob(psa, job.id, { json: options.json });
  if (ended.status !== 'completed') process.exitCode = 1;
}
