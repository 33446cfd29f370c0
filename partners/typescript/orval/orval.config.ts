// Orval's configuration, from the published document, in two outputs as Orval's documentation
// pairs them: a fetch client (one function per operation, its answer typed per status, through
// service-fetch.ts, which adds the base URL and the API key), and Zod schemas of the components
// (generateReusableSchemas: one schema per component, named as the document names it).
import { defineConfig } from 'orval';

export default defineConfig({
  payments: {
    input: { target: './openapi.json' },
    output: {
      target: './client/payments.ts',
      schemas: './client/model',
      client: 'fetch',
      // One import per model file: a directory import ('./model') does not resolve under NodeNext.
      indexFiles: false,
      tsconfig: './tsconfig.json',
      override: { mutator: { path: './service-fetch.ts', name: 'serviceFetch' } },
    },
  },
  paymentsZod: {
    input: { target: './openapi.json' },
    output: {
      target: './client/payments.zod.ts',
      client: 'zod',
      tsconfig: './tsconfig.json',
      override: { zod: { generateReusableSchemas: true } },
    },
  },
});
