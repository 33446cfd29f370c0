// Every row of the partner matrix, in the order the table prints them.
import type { Row } from '../row.js';
import { rustOpenapiGenerator } from './rust-openapi-generator.js';
import { typescriptOpenapiFetch } from './typescript-openapi-fetch.js';
import { typescriptHeyApi } from './typescript-hey-api.js';
import { typescriptOrval } from './typescript-orval.js';

export const rows: Row[] = [typescriptOpenapiFetch, typescriptHeyApi, typescriptOrval, rustOpenapiGenerator];
