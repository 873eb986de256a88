import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { api, apiUrl, createOrg } from './helpers.ts';

const { hostname, port } = new URL(apiUrl);

/** Sends raw bytes on a fresh connection and returns what came back before the server closed it. */
function raw(bytes: string, options: { resetAfterMs?: number } = {}): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => resolve(received));
    socket.on('close', () => resolve(received));
    socket.write(bytes);
    if (options.resetAfterMs !== undefined) setTimeout(() => socket.resetAndDestroy(), options.resetAfterMs);
  });
}

function statusLine(reply: string): string {
  return reply.split('\r\n')[0] ?? '';
}

function bodyOf(reply: string): { error?: { code?: string; requestId?: string } } {
  const head = reply.slice(0, reply.indexOf('\r\n\r\n')).toLowerCase();
  let body = reply.slice(reply.indexOf('\r\n\r\n') + 4);
  if (head.includes('transfer-encoding: chunked')) {
    let text = '';
    for (;;) {
      const lineEnd = body.indexOf('\r\n');
      const size = Number.parseInt(body.slice(0, lineEnd), 16);
      if (!size) break;
      text += body.slice(lineEnd + 2, lineEnd + 2 + size);
      body = body.slice(lineEnd + 2 + size + 2);
    }
    body = text;
  }
  return JSON.parse(body || '{}');
}

async function stillUp(): Promise<number> {
  return (await fetch(`${apiUrl}/api/open/v1/projects`)).status;
}

describe('the local service survives hostile requests', () => {
  it('answers a malformed percent-encoding in the path with a 400 envelope', async () => {
    const reply = await raw(
      'GET /api/open/v1/projects/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(statusLine(reply)).toBe('HTTP/1.1 400 Bad Request');
    expect(bodyOf(reply).error?.code).toBe('invalid_request');
    expect(await stillUp()).toBe(401);
  });

  it('answers an absolute-form request line with a bad host with a 400 envelope', async () => {
    const reply = await raw(
      'GET http://[bad/api/open/v1/projects HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(statusLine(reply)).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(reply).error?.code).toBe('invalid_request');
    expect(await stillUp()).toBe(401);
  });

  it('survives a body shorter than its Content-Length followed by a reset', async () => {
    await raw(
      'POST /api/open/v1/projects HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":',
      { resetAfterMs: 100 },
    );
    expect(await stillUp()).toBe(401);
  });

  it('answers oversized headers with a 431 envelope and closes the connection', async () => {
    const reply = await raw(
      `GET /api/open/v1/projects HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n{"follows":true}`,
    );
    expect(statusLine(reply)).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(reply.toLowerCase()).toContain('connection: close');
    expect(bodyOf(reply).error?.code).toBe('request_header_too_large');
    expect(await stillUp()).toBe(401);
  });

  it('refuses a WebSocket upgrade saying Connection: close', async () => {
    const reply = await raw(
      'GET /api/open/v1/projects/prj_00000000000000000000000001/reviews/rev_00000000000000000000000001/executions/exe_00000000000000000000000001/stream HTTP/1.1\r\n' +
        'Host: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    expect(statusLine(reply)).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply.toLowerCase()).toContain('connection: close');
    expect(bodyOf(reply).error?.code).toBe('review_stream_transport_unsupported');
  });

  it('answers ids far longer than any real one with 404 before any read', async () => {
    const org = await createOrg();
    const revoke = await api(`/api/open-api/keys/${'k'.repeat(2100)}/revoke`, {
      method: 'POST',
      cookie: org.sessionToken,
    });
    const project = await api(`/api/open/v1/projects/prj_${'a'.repeat(1100)}`, { key: org.apiKey });
    const job = await api(`/api/open/v1/jobs/job_${'a'.repeat(1100)}/files`, { key: org.apiKey });
    expect([revoke.status, revoke.body.error.code]).toEqual([404, 'api_key_not_found']);
    expect([project.status, project.body.error.code]).toEqual([404, 'project_not_found']);
    expect([job.status, job.body.error.code]).toEqual([404, 'job_not_found']);
  });

  it('accepts numbers in queries only as decimal digits', async () => {
    const org = await createOrg();
    const refused = [];
    for (const limit of ['0x10', '1e1', '+2', ' 1', '1.0', '-1', '00000000000000000001', '']) {
      refused.push(
        (await api(`/api/open/v1/jobs?limit=${encodeURIComponent(limit)}`, { key: org.apiKey })).status,
      );
    }
    const accepted = await api('/api/open/v1/jobs?limit=10', { key: org.apiKey });
    expect(refused).toEqual([400, 400, 400, 400, 400, 400, 400, 400]);
    expect(accepted.status).toBe(200);
  });
});
