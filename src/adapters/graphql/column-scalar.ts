import type { GraphQLScalarType } from 'graphql';
import type { ColumnDef } from '../../domain/model/types.js';
import { typeSystem } from './graphql-js.js';

const { GraphQLBoolean, GraphQLFloat, GraphQLID, GraphQLInt, GraphQLString } = typeSystem;

/** The GraphQL scalar of a column (SPEC "GraphQL types" 1: keys travel as ID strings); `json` is the JSON scalar to use. */
export function columnScalar(col: ColumnDef, json: GraphQLScalarType): GraphQLScalarType {
  if (col.primary || col.references) return GraphQLID;
  switch (col.type) {
    case 'int':
      return GraphQLInt;
    case 'float':
      return GraphQLFloat;
    case 'bool':
      return GraphQLBoolean;
    case 'json':
      return json;
    default:
      return GraphQLString;
  }
}
