// Every row of the partner matrix, in the order the table prints them.
import type { Row } from '../row.js';
import { typescriptOpenapiFetch } from './typescript-openapi-fetch.js';
import { pythonOpenapiGenerator } from './python-openapi-generator.js';
import { pythonOpenapiPythonClient } from './python-openapi-python-client.js';

export const rows: Row[] = [typescriptOpenapiFetch, pythonOpenapiPythonClient, pythonOpenapiGenerator];
