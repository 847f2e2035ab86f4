import { createRequire } from 'node:module';
import type * as GraphqlJs from 'graphql';

const require = createRequire(import.meta.url);

/**
 * graphql-js, in two parts. graphql-js is CommonJS; `import { … } from 'graphql'` would load all
 * of it (129 modules) at start and, through Node's export detection for CommonJS, read and scan
 * again every file its index re-exports. The schema is built at start (so a schema that cannot
 * be built still stops the app there) from the type system alone: `graphql/type` and
 * `graphql/error`, 40 modules. Parsing, validation and execution (`graphql`, everything) are
 * loaded with the first document the pipeline reads. Both are the same modules the `graphql`
 * entry hands a host app: one graphql-js, as its schemas require (docs/decisions.md).
 */
export const typeSystem = require('graphql/type') as Pick<
  typeof GraphqlJs,
  'getNamedType' | 'isObjectType' | 'GraphQLBoolean' | 'GraphQLFloat' | 'GraphQLID' | 'GraphQLInputObjectType' | 'GraphQLInt' | 'GraphQLList' | 'GraphQLNonNull' | 'GraphQLObjectType' | 'GraphQLScalarType' | 'GraphQLSchema' | 'GraphQLString'
>;

/** graphql-js's error class (what resolvers throw and the pipeline formats). */
export const { GraphQLError } = require('graphql/error') as Pick<typeof GraphqlJs, 'GraphQLError'>;
export type GraphQLError = GraphqlJs.GraphQLError;

let whole: typeof GraphqlJs | undefined;

/** All of graphql-js (parse, validate, execute, …), loaded on the first call. */
export function graphqlJs(): typeof GraphqlJs {
  return (whole ??= require('graphql') as typeof GraphqlJs);
}
