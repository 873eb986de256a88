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

/**
 * The files named: each file as given, and the PDFs of each folder (recursively, in name order;
 * hidden entries and symbolic links are skipped so a folder cannot pull in files from elsewhere).
 */
export async function expandPaths(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  const walk = async (folder: string) => {
    const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && extname(entry.name).toLowerCase() === '.pdf') files.push(full);
    }
  };
  for (const path of paths) {
    const full = resolve(path);
    const info = await stat(full);
    if (info.isDirectory()) await walk(full);
    else if (info.isFile()) files.push(full);
    else throw new Error(`Not a file or folder: ${path}`);
  }
  const unique = [...new Set(files)];
  const names = new Map<string, string>();
  for (const file of unique) {
    const name = basename(file);
    const other = names.get(name);
    if (other) throw new Error(`Two files share the name ${name}: ${other} and ${file}`);
    names.set(name, file);
  }
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
      if (!files.length) throw new Error('No files to upload (folders contribute their .pdf files).');
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
