// Every row of the partner matrix, in the order the table prints them.
import type { Row } from '../row.js';
import { typescriptOpenapiFetch } from './typescript-openapi-fetch.js';
import { typescriptHeyApi } from './typescript-hey-api.js';
import { typescriptOrval } from './typescript-orval.js';
import { phpOpenapiGenerator } from './php-openapi-generator.js';
import { rubyOpenapiGenerator } from './ruby-openapi-generator.js';
import { perlOpenapiClient } from './perl-openapi-client.js';

export const rows: Row[] = [typescriptOpenapiFetch, typescriptHeyApi, typescriptOrval, phpOpenapiGenerator, rubyOpenapiGenerator, perlOpenapiClient];
