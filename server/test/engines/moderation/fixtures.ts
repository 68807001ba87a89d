/** Paths of the committed moderation fixtures (test/fixtures/moderation, see SOURCES.md there). */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const FIXTURES = fileURLToPath(new URL('../../../../test/fixtures/moderation/', import.meta.url));

/** Every ordinary real photo (public domain / CC0): people, a group, an animal, food, structures, nature. */
export const ORDINARY_PHOTOS = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.jpg'))
  .sort();
