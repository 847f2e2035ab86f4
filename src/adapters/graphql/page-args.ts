import { LIST_DEFAULT, LIST_MAX } from '../../domain/graphql/page-size.js';
import { typeSystem } from './graphql-js.js';

const { GraphQLInt } = typeSystem;

/** A page-size argument: absent means the default (introspection shows it), above the cap is clamped, negative is refused (`pageSize`). */
export const pageArg = (description: string) => ({ type: GraphQLInt, defaultValue: LIST_DEFAULT, description: `${description} (default ${LIST_DEFAULT}, at most ${LIST_MAX})` });
