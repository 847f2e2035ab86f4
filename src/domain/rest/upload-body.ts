import { formValue } from '../admin/form-values.js';
import { DomainError, type FieldError } from '../errors/domain-error.js';
import type { ModelDef } from '../model/types.js';
import type { UploadedFile } from '../storage/file-value.js';

/**
 * A `multipart/form-data` write body as the write path takes it (issue 51): each text field
 * coerced by its column's type as a form's would be (`42` to an int, `true` to a bool, JSON text
 * to JSON; an empty field is null on a nullable column), the kept files in their columns. A
 * field no column has stays text, so the write path refuses it as it refuses it in JSON. Values
 * that do not convert answer 400 naming every field.
 */
export function uploadBody(model: ModelDef, fields: Readonly<Record<string, string>>, files: Readonly<Record<string, UploadedFile>>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const [name, text] of Object.entries(fields)) {
    const col = model.columns.find((c) => c.name === name);
    if (!col) {
      body[name] = text;
      continue;
    }
    const { value, error } = formValue(col, text);
    if (error) errors.push({ field: name, message: error });
    else if (value !== undefined) body[name] = value;
  }
  if (errors.length > 0) throw new DomainError('invalid_input', errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
  return Object.assign(body, files);
}
