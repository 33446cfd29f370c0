// Every row of the partner matrix, in the order the table prints them.
import type { Row } from '../row.js';
import { csharpOpenapiGenerator } from './csharp-openapi-generator.js';
import { goOapiCodegen } from './go-oapi-codegen.js';
import { javaOpenapiGenerator } from './java-openapi-generator.js';
import { kotlinOpenapiGenerator } from './kotlin-openapi-generator.js';
import { perlOpenapiClient } from './perl-openapi-client.js';
import { phpOpenapiGenerator } from './php-openapi-generator.js';
import { pythonOpenapiGenerator } from './python-openapi-generator.js';
import { pythonOpenapiPythonClient } from './python-openapi-python-client.js';
import { rubyOpenapiGenerator } from './ruby-openapi-generator.js';
import { rustOpenapiGenerator } from './rust-openapi-generator.js';
import { typescriptHeyApi } from './typescript-hey-api.js';
import { typescriptOpenapiFetch } from './typescript-openapi-fetch.js';
import { typescriptOrval } from './typescript-orval.js';

export const rows: Row[] = [
  typescriptOpenapiFetch,
  typescriptHeyApi,
  typescriptOrval,
  pythonOpenapiPythonClient,
  pythonOpenapiGenerator,
  javaOpenapiGenerator,
  kotlinOpenapiGenerator,
  goOapiCodegen,
  rustOpenapiGenerator,
  phpOpenapiGenerator,
  rubyOpenapiGenerator,
  perlOpenapiClient,
  csharpOpenapiGenerator,
];
