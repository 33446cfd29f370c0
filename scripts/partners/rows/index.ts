// Every row of the partner matrix, in the order the table prints them.
import type { Row } from '../row.js';
import { goOapiCodegen } from './go-oapi-codegen.js';
import { typescriptOpenapiFetch } from './typescript-openapi-fetch.js';

export const rows: Row[] = [typescriptOpenapiFetch, goOapiCodegen];
