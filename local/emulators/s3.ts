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

function forward(
  target: number,
  incoming: IncomingMessage,
  response: ServerResponse,
  body: Buffer | null,
): void {
  const headers = { ...incoming.headers };
  if (body) headers['content-length'] = String(body.length);
  const upstream = httpRequest(
    { host: '127.0.0.1', port: target, method: incoming.method, path: incoming.url, headers },
    (upstreamResponse) => {
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
  const route = (incoming: IncomingMessage, response: ServerResponse) => {
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
  const handle = (incoming: IncomingMessage, response: ServerResponse) => {
    // A client that resets mid-upload ends its own request, never the emulator.
    incoming.on('error', () => response.destroy());
    response.on('error', () => incoming.destroy());
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
