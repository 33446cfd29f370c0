// openapi-generator checks the document with swagger-parser before it generates, and stops on an
// error. A row that passes --skip-validate-spec goes on, and the generator prints what it found
// after a single WARN line; these are the errors under that line, so that the table counts them
// with the other warnings instead of hiding them.
//
// Why a row passes it (see its NOTES.md): swagger-parser reads a Link Object's `requestBody` as a
// string, though OpenAPI allows any value there, so the contract's links whose requestBody is an
// object fail its check.
export function specValidationErrors(output: string): string[] {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => /WARN .*There were issues with the specification/.test(line));
  if (start < 0) return [];
  const errors: string[] = [];
  let inErrors = false;
  for (const line of lines.slice(start + 1)) {
    if (/^Errors:\s*$/.test(line)) inErrors = true;
    else if (inErrors && /^\s+-/.test(line)) errors.push(`spec validation: ${line.trim().slice(1)}`);
    else break;
  }
  return errors;
}
