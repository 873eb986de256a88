import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import S3rver from '@20minutes/s3rver';
import { freePort } from './util.ts';

export interface LocalS3 {
  endpoint: string;
  stop(): Promise<void>;
}

const MAX_CHECKED_BODY_BYTES = 6 * 1024 * 1024 * 1024;

function decodeSafely(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

function badDigest(response: ServerResponse): void {
  response.writeHead(400, { 'content-type': 'application/xml' });
  response.end(
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>BadDigest</Code>' +
      '<Message>The SHA256 you specified did not match the calculated checksum.</Message></Error>',
  );
}

function s3Error(response: ServerResponse, status: number, code: string, message: string): void {
  response.writeHead(status, { 'content-type': 'application/xml' });
  response.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
}

/**
 * What s3rver does not do for multipart uploads and real S3 does: remember each part's ETag and
 * refuse a completion that names another (400 InvalidPart), and abort an upload (204; its parts and
 * its completion are refused afterwards with 404 NoSuchUpload).
 */
class MultipartLedger {
  private readonly etags = new Map<string, Map<number, string>>();
  private readonly aborted = new Set<string>();

  recordPart(uploadId: string, partNumber: number, etag: string): void {
    if (!this.etags.has(uploadId)) this.etags.set(uploadId, new Map());
    this.etags.get(uploadId)?.set(partNumber, etag.replaceAll('"', ''));
  }

  abort(uploadId: string): void {
    this.aborted.add(uploadId);
    this.etags.delete(uploadId);
  }

  isAborted(uploadId: string): boolean {
    return this.aborted.has(uploadId);
  }

  /** The first part of a completion body whose ETag is not the one storage returned for it, if any. */
  wrongPart(uploadId: string, completion: string): number | null {
    const known = this.etags.get(uploadId);
    if (!known) return null; // parts sent before this emulator started: nothing to compare with
    for (const part of completion.matchAll(/<Part>([\s\S]*?)<\/Part>/g)) {
      const partNumber = Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(part[1] ?? '')?.[1]);
      const etag = (/<ETag>([^<]*)<\/ETag>/.exec(part[1] ?? '')?.[1] ?? '')
        .replaceAll('&quot;', '')
        .replaceAll('"', '');
      if (known.get(partNumber) !== etag) return partNumber;
    }
    return null;
  }
}

function forward(
  target: number,
  incoming: IncomingMessage,
  response: ServerResponse,
  body: Buffer | null,
  onResponse?: (status: number, headers: IncomingMessage['headers']) => void,
): void {
  const headers = { ...incoming.headers };
  if (body) headers['content-length'] = String(body.length);
  const upstream = httpRequest(
    { host: '127.0.0.1', port: target, method: incoming.method, path: incoming.url, headers },
    (upstreamResponse) => {
      onResponse?.(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
      response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
      upstreamResponse.pipe(response);
    },
  );
  upstream.on('error', (error) => {
    if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
    response.end(`S3 emulator unreachable: ${error.message}`);
  });
  if (body) upstream.end(body);
  else incoming.pipe(upstream);
}

/**
 * S3 emulator: `@20minutes/s3rver` checks SigV4 signatures but not `x-amz-checksum-sha256`, so a
 * small proxy in front of it does what real S3 does: a body whose SHA-256 differs from the header
 * gets 400 BadDigest and is never stored. The Host header is forwarded as signed.
 */
export async function startS3(options: { dataDir: string; buckets: string[] }): Promise<LocalS3> {
  mkdirSync(options.dataDir, { recursive: true });
  const innerPort = await freePort();
  const s3rver = new S3rver({
    address: '127.0.0.1',
    port: innerPort,
    silent: true,
    directory: options.dataDir,
    configureBuckets: options.buckets.map((name) => ({ name, configs: [] })),
  });
  await s3rver.run();

  const proxy = createServer((incoming, response) => {
    try {
      route(incoming, response);
    } catch {
      // An unparsable request target: S3's own answer, and the emulator stays up.
      incoming.resume();
      if (!response.headersSent) response.writeHead(400, { 'content-type': 'application/xml' });
      response.end('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InvalidURI</Code></Error>');
    }
  });
  const multipart = new MultipartLedger();
  const route = (incoming: IncomingMessage, response: ServerResponse) => {
    // A client that resets mid-upload ends its own request, never the emulator.
    incoming.on('error', () => response.destroy());
    response.on('error', () => incoming.destroy());
    const query = new URL(incoming.url ?? '/', 'http://local').searchParams;
    const uploadId = query.get('uploadId');
    if (uploadId !== null && multipartRoute(incoming, response, uploadId, query.get('partNumber'))) return;
    if (incoming.method === 'PUT' && incoming.headers['if-none-match'] === '*') {
      // Conditional create (S3 supports it; s3rver ignores it): refuse to overwrite an existing object.
      const [bucket, ...rest] = new URL(incoming.url ?? '/', 'http://local').pathname.slice(1).split('/');
      const key = rest.join('/');
      void s3rver.store.existsObject(bucket ?? '', decodeSafely(key)).then(
        (exists) => {
          if (!exists) return handle(incoming, response);
          incoming.resume();
          response.writeHead(412, { 'content-type': 'application/xml' });
          response.end(
            '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>PreconditionFailed</Code>' +
              '<Message>At least one of the pre-conditions you specified did not hold</Message></Error>',
          );
        },
        () => response.destroy(),
      );
      return;
    }
    handle(incoming, response);
  };
  /** True when the multipart ledger answered (or took over) the request. */
  const multipartRoute = (
    incoming: IncomingMessage,
    response: ServerResponse,
    uploadId: string,
    partNumber: string | null,
  ): boolean => {
    if (multipart.isAborted(uploadId)) {
      incoming.resume();
      s3Error(response, 404, 'NoSuchUpload', 'The specified multipart upload does not exist.');
      return true;
    }
    if (incoming.method === 'DELETE') {
      incoming.resume();
      multipart.abort(uploadId);
      response.writeHead(204);
      response.end();
      return true;
    }
    if (incoming.method === 'PUT' && partNumber !== null) {
      forward(innerPort, incoming, response, null, (status, headers) => {
        if (status === 200 && typeof headers.etag === 'string')
          multipart.recordPart(uploadId, Number(partNumber), headers.etag);
      });
      return true;
    }
    if (incoming.method === 'POST') {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const body = Buffer.concat(chunks);
        const wrong = multipart.wrongPart(uploadId, body.toString('utf8'));
        if (wrong !== null) {
          s3Error(response, 400, 'InvalidPart', `Part ${wrong} was not uploaded with the ETag given for it.`);
          return;
        }
        forward(innerPort, incoming, response, body);
      });
      return true;
    }
    return false;
  };
  const handle = (incoming: IncomingMessage, response: ServerResponse) => {
    const declared = incoming.headers['x-amz-checksum-sha256'];
    if ((incoming.method === 'PUT' || incoming.method === 'POST') && typeof declared === 'string') {
      const chunks: Buffer[] = [];
      let size = 0;
      const hash = createHash('sha256');
      incoming.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_CHECKED_BODY_BYTES) {
          incoming.destroy();
          return;
        }
        hash.update(chunk);
        chunks.push(chunk);
      });
      incoming.on('end', () => {
        if (hash.digest('base64') !== declared) badDigest(response);
        else forward(innerPort, incoming, response, Buffer.concat(chunks));
      });
      return;
    }
    forward(innerPort, incoming, response, null);
  };
  const port = await freePort();
  await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      const closed = new Promise<void>((resolve) => proxy.close(() => resolve()));
      proxy.closeAllConnections();
      await closed;
      await s3rver.close();
    },
  };
}
