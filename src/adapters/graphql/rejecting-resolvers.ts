import type { GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import { typeSystem } from './graphql-js.js';

/**
 * Makes every field resolver of `schema` answer a failure as a rejected promise instead of a
 * throw (its answers are otherwise the same, a plain value staying a plain value).
 *
 * graphql-js 16's `execute`, which runs mutations, subscription events and every operation sent
 * over SSE or WebSocket, loses the earlier items of a list when a later item fails synchronously:
 * `completeListValue` stops at the throw, and the promises of the items before it (which may
 * reject too: `{ posts { author { name } comments(limit: -1) { body } } }` when one post has no
 * author) are never observed. Their rejections go unhandled, and Node ends a process on an
 * unhandled rejection, so one query could stop the server. With no resolver throwing, an item
 * fails through a promise, which graphql-js awaits with the others. graphql-jit observes both
 * forms; it answers the same either way.
 */
export function rejectingResolvers(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!typeSystem.isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.resolve) field.resolve = rejecting(field.resolve);
    }
  }
  return schema;
}

function rejecting<S, C>(resolve: GraphQLFieldResolver<S, C>): GraphQLFieldResolver<S, C> {
  return (source, args, context, info) => {
    try {
      return resolve(source, args, context, info);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}
