import { GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, parse, type FragmentDefinitionNode, type OperationDefinitionNode, type FieldNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { COLUMNS_EXTENSION, columnsReader, type SelectionInfo } from '../../../src/adapters/graphql/selected-columns.js';

/** A Post type whose fields declare the columns they read, as the schema builder declares them. */
const Author = new GraphQLObjectType({ name: 'Author', fields: { name: { type: GraphQLString, extensions: { [COLUMNS_EXTENSION]: ['name'] } } } });
const Post = new GraphQLObjectType({
  name: 'Post',
  fields: {
    id: { type: GraphQLInt, extensions: { [COLUMNS_EXTENSION]: ['id'] } },
    title: { type: GraphQLString, extensions: { [COLUMNS_EXTENSION]: ['title'] } },
    author: { type: Author, extensions: { [COLUMNS_EXTENSION]: ['author_id'] } },
    undeclared: { type: GraphQLString },
  },
});
const schema = new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { posts: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(Post))) } } }) });

/** The resolve info of the root `posts` field of a document. */
function infoOf(document: string) {
  const doc = parse(document);
  const operation = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  const fragments = Object.fromEntries(doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === 'FragmentDefinition').map((f) => [f.name.value, f]));
  const fieldNodes = (operation?.selectionSet.selections ?? []).filter((s): s is FieldNode => s.kind === 'Field');
  return { fieldNodes, fragments, returnType: schema.getQueryType()?.getFields().posts?.type as GraphQLNonNull<GraphQLList<GraphQLNonNull<GraphQLObjectType>>> };
}

/** What a fresh reader with `always` answers for `info`. */
const selectedColumns = (info: SelectionInfo, always: readonly string[]) => columnsReader(always)(info)?.columns;

describe('columnsReader', () => {
  it('reads the columns of the selected fields, relations by their key, plus the columns always needed', () => {
    expect(selectedColumns(infoOf('{ posts { title author { name } } }'), ['id'])).toEqual(['author_id', 'id', 'title']);
    expect(selectedColumns(infoOf('{ posts { __typename } }'), ['id'])).toEqual(['id']);
  });

  it('follows fragments and inline fragments, aliases and repeated fields, and ignores directives', () => {
    const info = infoOf('query { posts { t: title ...F ... on Post { id @skip(if: true) } } } fragment F on Post { author { name } ...G } fragment G on Post { title ...F }');
    expect(selectedColumns(info, ['id'])).toEqual(['author_id', 'id', 'title']);
    expect(selectedColumns(infoOf('{ posts { title } posts { author { name } } }'), [])).toEqual(['author_id', 'title']);
  });

  it('reads every column when a selected field declares none, or a fragment is missing', () => {
    expect(selectedColumns(infoOf('{ posts { title undeclared } }'), ['id'])).toBeUndefined();
    expect(selectedColumns(infoOf('{ posts { ...Missing } }'), ['id'])).toBeUndefined();
  });

  it('keeps its answer with the field node, and names it with one text', () => {
    const info = infoOf('{ posts { title } }');
    const read = columnsReader(['id']);
    const first = read(info);
    expect(first).toEqual({ columns: ['id', 'title'], key: 'id,title' });
    expect(read(info)).toBe(first);
    expect(columnsReader(['id', 'author_id'])(info)?.columns).toEqual(['author_id', 'id', 'title']);
  });
});
