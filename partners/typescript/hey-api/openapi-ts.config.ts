// @hey-api/openapi-ts's configuration: types, an SDK of one function per operation, and the fetch
// client it bundles into the output (client/client), from the published document.
import { defineConfig } from '@hey-api/openapi-ts';

/** A schema that says nothing more than `type: string`: the open branch of an open enum. */
const isAnyString = (schema: { type?: unknown; const?: unknown; format?: unknown; pattern?: unknown }) =>
  schema.type === 'string' && schema.const === undefined && schema.format === undefined && schema.pattern === undefined;

export default defineConfig({
  input: 'openapi.json',
  output: 'client',
  plugins: [
    '@hey-api/client-fetch',
    {
      name: '@hey-api/typescript',
      // Closed enums (the *Input schemas a request names) also become objects of constants.
      enums: 'javascript',
      $resolvers: {
        // An open enum, `anyOf: [{type: string, enum: [...]}, {type: string}]`, comes out by default
        // as `'a' | 'b' | string`, which TypeScript reduces to `string`. Written
        // `'a' | 'b' | (string & {})`, it accepts the same strings and an editor still offers 'a'
        // and 'b'. Any other union is left to hey-api (undefined).
        union(ctx) {
          const [known, other, ...rest] = ctx.schemas;
          if (rest.length > 0 || known?.type !== 'enum' || !other || !isAnyString(other)) return undefined;
          return ctx.$.type.or(ctx.childResults[0]!.type, ctx.$.type.and('string', ctx.$.type.object()));
        },
      },
    },
    '@hey-api/sdk',
  ],
});
