import type { Writable } from 'node:stream';

/** Globals of the Lambda Node.js runtime for response streaming (shimmed locally by local/streaming-shim.ts). */
declare global {
  namespace awslambda {
    type ResponseStream = Writable;
    function streamifyResponse<E>(
      handler: (
        event: E,
        responseStream: ResponseStream,
        context: import('aws-lambda').Context,
      ) => Promise<void>,
    ): (event: E, responseStream: ResponseStream, context: import('aws-lambda').Context) => Promise<void>;
    namespace HttpResponseStream {
      function from(
        stream: ResponseStream,
        prelude: { statusCode: number; headers?: Record<string, string> },
      ): ResponseStream;
    }
  }
}
