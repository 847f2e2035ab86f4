/** GraphQL names derived from table names (DESIGN §3 "GraphQL names"). */

const words = (table: string): string[] => table.split('_').filter(Boolean);
const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** `order_item` → `OrderItem`. */
export function typeName(table: string): string {
  return words(table).map(cap).join('');
}

/** `order_item` → `orderItem`. */
export function fieldName(table: string): string {
  const t = typeName(table);
  return t.charAt(0).toLowerCase() + t.slice(1);
}

/** English plural of a camel-case name: `post` → `posts`, `reply` → `replies`, `box` → `boxes`. */
export function plural(name: string): string {
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(name)) return `${name}es`;
  return `${name}s`;
}
