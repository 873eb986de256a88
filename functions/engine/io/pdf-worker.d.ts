/** The part of pdf.js's parser module (no types of its own) that pdf-port.ts uses. */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: { initializeFromPort(port: unknown): void };
}
