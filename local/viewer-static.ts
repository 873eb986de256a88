import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { VIEWER_CONTENT_SECURITY_POLICY, VIEWER_DIST } from '../lib/viewer-site.ts';

const PREFIX = '/viewer';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/**
 * Serves the web viewer under /viewer on the API's own origin (as CloudFront does on AWS), so the
 * browser needs no CORS. Answers and returns true for /viewer paths; any other path is the API's.
 */
export function serveViewer(path: string, request: IncomingMessage, response: ServerResponse): boolean {
  if (path !== PREFIX && !path.startsWith(`${PREFIX}/`)) return false;
  request.resume();
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
    response.end('Method not allowed');
    return true;
  }
  if (path === PREFIX) {
    response.writeHead(308, { location: `${PREFIX}/` });
    response.end();
    return true;
  }
  const relative = path.slice(PREFIX.length + 1) || 'index.html';
  const file = normalize(join(VIEWER_DIST, relative));
  // The path is already decoded; anything that climbs out of the build folder is not found.
  const inside = file.startsWith(`${VIEWER_DIST}${sep}`);
  if (!existsSync(join(VIEWER_DIST, 'index.html'))) {
    response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    response.end('The viewer is not built: run `npm install` (it builds web/ into web/dist).');
    return true;
  }
  const stats = inside ? statSync(file, { throwIfNoEntry: false }) : undefined;
  if (!stats?.isFile()) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    response.end('Not found');
    return true;
  }
  const hashed = relative.startsWith('assets/');
  response.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': stats.size,
    'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
    'content-security-policy': VIEWER_CONTENT_SECURITY_POLICY,
  });
  if (request.method === 'HEAD') response.end();
  else createReadStream(file).pipe(response);
  return true;
}
