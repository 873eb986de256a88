import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';

/**
 * The Lambda runtime's response-streaming globals (`awslambda.streamifyResponse`,
 * `awslambda.HttpResponseStream.from`), for running the same streaming handler locally. Installed
 * before the handler module is imported. As on Lambda, status and headers go out with the first write.
 */
const STREAMING = Symbol.for('local.streamingHandler');

interface Prelude {
  statusCode: number;
  headers?: Record<string, string>;
}

class LocalResponseStream extends Writable {
  prelude: Prelude = { statusCode: 200, headers: {} };

  private readonly response: ServerResponse;

  constructor(response: ServerResponse) {
    super();
    this.response = response;
    response.on('close', () => this.destroy());
  }

  private sendHead(): void {
    if (!this.response.headersSent)
      this.response.writeHead(this.prelude.statusCode, this.prelude.headers ?? {});
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.sendHead();
    this.response.write(chunk, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.sendHead();
    this.response.end(callback);
  }
}

export function installStreamingShim(): void {
  const globals = globalThis as { awslambda?: Record<string, unknown> };
  // Other libraries (the Lambda invoke store) may have created the namespace already: extend it.
  globals.awslambda ??= {};
  if (typeof globals.awslambda.streamifyResponse === 'function') return;
  Object.assign(globals.awslambda, {
    streamifyResponse: (handler: (...args: unknown[]) => Promise<void>) =>
      Object.assign(handler, { [STREAMING]: true }),
    HttpResponseStream: {
      from: (stream: LocalResponseStream, prelude: Prelude) => {
        stream.prelude = prelude;
        return stream;
      },
    },
  });
}

export function createResponseStream(response: ServerResponse): LocalResponseStream {
  return new LocalResponseStream(response);
}
