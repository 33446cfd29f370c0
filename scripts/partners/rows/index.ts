// Every row of the partner matrix, in the order the table prints them.
import type { Row } from '../row.js';
import { rustOpenapiGenerator } from './rust-openapi-generator.js';
import { typescriptOpenapiFetch } from './typescript-openapi-fetch.js';

export const rows: Row[] = [typescriptOpenapiFetch, rustOpenapiGenerator];
