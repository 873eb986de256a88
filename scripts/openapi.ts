import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from './openapi-document.ts';

/** `npm run openapi`: regenerates docs/openapi.json (a unit test fails when it is stale). */
writeFileSync('docs/openapi.json', `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log('wrote docs/openapi.json');
