import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startS3 } from '../../local/emulators/s3.ts';

describe('stopping the local S3 emulator', () => {
  it('finishes within seconds while a client holds a connection open', async () => {
    // Prepare: a keep-alive connection that never sends its request.
    const dataDir = mkdtempSync(join(tmpdir(), 'psa-stop-'));
    const s3 = await startS3({ dataDir, buckets: ['stop-test'] });
    const { hostname, port } = new URL(s3.endpoint);
    const socket = connect(Number(port), hostname);
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    socket.write('GET /stop-test HTTP/1.1\r\nHost: x\r\n');
    socket.on('error', () => undefined);

    // Act
    const started = Date.now();
    await s3.stop();
    const elapsed = Date.now() - started;

    // Assess
    expect(elapsed).toBeLessThan(3_000);
    socket.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });
});
