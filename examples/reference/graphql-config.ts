import { bearerAuthentication, chainAuthentication, graphql, sessionAuthentication, type GraphqlPlugin } from '../../src/index.js';

/** The reference app's GraphQL configuration (REFERENCE-APP.md "GraphQL configuration"). */
export function referenceGraphql(): GraphqlPlugin {
  const plugin = graphql().authenticate(chainAuthentication(sessionAuthentication(), bearerAuthentication()));
  for (const table of ['author', 'post', 'comment', 'reply', 'tag', 'shop_order', 'order_item', 'project', 'milestone', 'note', 'attachment']) plugin.expose(table);
  return plugin
    .exposeIf('staff_report', (who) => who.isStaff)
    .hide('author', 'email')
    .hide('order_item', 'secret')
    .allowPrivateIf('post', 'score', (who) => who.isStaff)
    .mutable('comment')
    .mutableIf('post', (who) => who.isAuthenticated)
    .mutableIf('author', (who) => who.isAuthenticated)
    .mutableIf('note', (who) => who.isAuthenticated)
    .subscribable('post');
}
