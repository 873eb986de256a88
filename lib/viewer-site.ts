import { join } from 'node:path';

/**
 * What the web viewer's two hosts share: CloudFront on AWS (lib/viewer-hosting.ts) and the local
 * server (local/viewer-static.ts). No CDK imports, so the local server loads it cheaply.
 */

/** The viewer's build output (`npm install` runs `vite build` in web/). */
export const VIEWER_DIST = join(import.meta.dirname, '..', 'web', 'dist');

/** Scripts, styles and connections to this origin only; no framing. */
export const VIEWER_CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";
