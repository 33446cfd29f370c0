// @hey-api/openapi-ts's configuration: types, an SDK of one function per operation, and the fetch
// client it bundles into the output (client/client), from the published document.
import { defineConfig } from '@hey-api/openapi-ts';

export default defineConfig({
  input: 'openapi.json',
  output: 'client',
  plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
});
