/**
 * A multipart body from a form's parsed values, as the server's multipart plugin reads it back into the same
 * shared schema: every defined value as text (so `true` is "true"), each file under its own name.
 */
export function toFormData(values: Record<string, unknown>, files: Record<string, File | undefined> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== null) form.set(name, String(value));
  }
  for (const [name, file] of Object.entries(files)) if (file) form.set(name, file);
  return form;
}
