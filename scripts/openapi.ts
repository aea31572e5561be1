/** `npm run openapi`: writes docs/openapi.yaml from the route table and zod schemas in src/shared/api. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiYaml } from '../src/shared/api/openapi';

const target = fileURLToPath(new URL('../docs/openapi.yaml', import.meta.url));
writeFileSync(target, openApiYaml());
console.log(`wrote ${target}`);
