/** A map key for a column value: its text (Dates by instant), so that keys of any type compare as the store's values do. */
export const keyOf = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));
