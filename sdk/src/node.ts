import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { type ClientOptions, createClient as createBaseClient } from './client.ts';
import { type UploadOptions, type UploadResult, type UploadSource, uploadSources } from './upload.ts';

export * from './index.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
};

export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Files that cannot be uploaded, each with what is wrong; thrown before anything is created. */
export class PsaFileCheckError extends Error {
  readonly problems: { path: string; problem: string }[];
  constructor(problems: { path: string; problem: string }[]) {
    super(
      `Nothing was uploaded: ${problems.length} file${problems.length === 1 ? '' : 's'} cannot be:\n` +
        problems.map((p) => `  ${p.path}: ${p.problem}`).join('\n'),
    );
    this.name = 'PsaFileCheckError';
    this.problems = problems;
  }
}

/** The service processes PDF files only; anything else would fail later as `unsupported_file_type`. */
async function notPdfBecause(path: string): Promise<string | null> {
  if (extname(path).toLowerCase() !== '.pdf')
    return 'not a PDF (only PDF files are processed; its name does not end in .pdf)';
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    // Readers accept the header anywhere in the first 1024 bytes, as the service's inspection does.
    if (!head.subarray(0, bytesRead).includes('%PDF-')) return 'not a PDF (no %PDF- header)';
  } finally {
    await handle.close();
  }
  return null;
}

/**
 * The files named, checked before anything is created: each file as given, and the PDFs of each
 * folder (recursively, in name order; hidden entries and symbolic links are skipped so a folder
 * cannot pull in files from elsewhere). A path that is missing, a file that is not a PDF, a folder
 * without PDFs or two files of one name throw `PsaFileCheckError` listing every problem.
 */
export async function expandPaths(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  const problems: { path: string; problem: string }[] = [];
  let pdfsInFolders = 0;
  const walk = async (folder: string) => {
    const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && extname(entry.name).toLowerCase() === '.pdf') {
        pdfsInFolders += 1;
        const problem = await notPdfBecause(full);
        if (problem) problems.push({ path: full, problem });
        else files.push(full);
      }
    }
  };
  for (const path of paths) {
    const full = resolve(path);
    const info = await stat(full).catch((error: NodeJS.ErrnoException) => error);
    if (info instanceof Error) {
      problems.push({ path, problem: info.code === 'ENOENT' ? 'no such file or folder' : info.message });
    } else if (info.isDirectory()) {
      const before = pdfsInFolders;
      await walk(full);
      if (pdfsInFolders === before) problems.push({ path, problem: 'a folder without .pdf files' });
    } else if (info.isFile()) {
      const problem = await notPdfBecause(full);
      if (problem) problems.push({ path, problem });
      else files.push(full);
    } else {
      problems.push({ path, problem: 'not a file or folder' });
    }
  }
  const unique = [...new Set(files)];
  const names = new Map<string, string>();
  for (const file of unique) {
    const name = basename(file);
    const other = names.get(name);
    if (other) problems.push({ path: file, problem: `shares the name ${name} with ${other}` });
    names.set(name, file);
  }
  if (problems.length) throw new PsaFileCheckError(problems);
  return unique;
}

/** A file on disk as an upload source (hashed once; parts read at their offsets). */
export async function fileSource(path: string): Promise<UploadSource> {
  const info = await stat(path);
  return {
    fileName: basename(path),
    contentType: CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
    size: info.size,
    sha256: await sha256OfFile(path),
    read: async (start, end) => {
      const handle = await open(path, 'r');
      try {
        const buffer = Buffer.alloc(end - start);
        let offset = 0;
        while (offset < buffer.length) {
          const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, start + offset);
          if (bytesRead === 0)
            throw new Error(`${path} changed while it was being uploaded (shorter than declared).`);
          offset += bytesRead;
        }
        return buffer;
      } finally {
        await handle.close();
      }
    },
  };
}

export interface UploadFilesOptions extends UploadOptions {
  /** Called after each file is hashed (hashing a large set takes a while). */
  onHashed?: (fileName: string, size: number) => void;
}

/** The client, plus `uploadFiles(jobId, paths)` for files and folders on disk. */
export function createClient(options: ClientOptions) {
  const client = createBaseClient(options);
  return {
    ...client,
    /** Hashes, registers, uploads (direct and multipart, in parallel, retried, resumable) and completes. */
    uploadFiles: async (
      jobId: string,
      paths: string[],
      uploadOptions: UploadFilesOptions = {},
    ): Promise<UploadResult> => {
      const files = await expandPaths(paths);
      if (!files.length) throw new PsaFileCheckError([{ path: '(none)', problem: 'no files were named' }]);
      const sources: UploadSource[] = [];
      for (const file of files) {
        const source = await fileSource(file);
        uploadOptions.onHashed?.(source.fileName, source.size);
        sources.push(source);
      }
      return uploadSources(client, jobId, sources, uploadOptions);
    },
  };
}

export type PsaNodeClient = ReturnType<typeof createClient>;
