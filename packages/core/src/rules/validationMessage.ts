import type { z } from 'zod';

/** The dotted path of an issue, e.g. `reference_images.3` or `(body)` for the whole body. */
export function issuePath(issue: z.core.$ZodIssue): string {
  return issue.path.length === 0 ? '(body)' : issue.path.map(String).join('.');
}

/**
 * One message a person can act on, naming each field and its limit:
 * `count: must be at most 4; resolution: must be one of "1k", "2k", "4k"`.
 */
export function formatValidationError(error: z.ZodError): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const issue of error.issues) {
    let message = issue.message;
    // zod keeps an issue's input only when parsing with `reportInput`; without it a wrong type is not a
    // missing value (the spec schemas say `is required` themselves, see typeError in spec/common.ts).
    if (issue.code === 'invalid_type' && 'input' in issue && issue.input === undefined)
      message = 'is required';
    if (issue.code === 'unrecognized_keys') {
      message = `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    }
    const line = issue.path.length === 0 ? message : `${issuePath(issue)}: ${message}`;
    if (!seen.has(line)) {
      seen.add(line);
      parts.push(line);
    }
  }
  return parts.join('; ');
}
