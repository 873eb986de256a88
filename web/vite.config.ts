import { defineConfig } from 'vite';

// Served under /viewer/ by the local server and by CloudFront on AWS (same origin as the API).
export default defineConfig({
  base: '/viewer/',
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
});
