/**
 * Reading a prompt as a bag of words: lower-cased, split on anything that is not a letter or digit,
 * with a light plural strip, so that "Mountains at NIGHT" matches "mountain" and "night".
 */
export class PromptWords {
  readonly words: Set<string>;
  readonly text: string;

  constructor(prompt: string) {
    this.text = prompt.toLowerCase();
    this.words = new Set();
    for (const raw of this.text.split(/[^\p{L}\p{N}]+/u)) {
      if (!raw) continue;
      this.words.add(raw);
      if (raw.length > 3 && raw.endsWith('ies')) this.words.add(`${raw.slice(0, -3)}y`);
      else if (raw.length > 3 && raw.endsWith('es')) this.words.add(raw.slice(0, -2));
      if (raw.length > 3 && raw.endsWith('s') && !raw.endsWith('ss')) this.words.add(raw.slice(0, -1));
    }
  }

  /** True when any of the words (or multi-word phrases) occurs in the prompt. */
  has(...candidates: string[]): boolean {
    return candidates.some((c) => (c.includes(' ') ? this.text.includes(c) : this.words.has(c)));
  }

  /** The first candidate that occurs, in the order given. */
  first<T extends string>(candidates: readonly T[]): T | undefined {
    return candidates.find((c) => this.has(c));
  }

  /** The first number in the prompt followed by one of the units, e.g. "120 bpm". */
  numberBefore(...units: string[]): number | undefined {
    const pattern = new RegExp(`(\\d{1,4}(?:\\.\\d+)?)\\s*(?:${units.join('|')})\\b`);
    const m = pattern.exec(this.text);
    return m?.[1] ? Number(m[1]) : undefined;
  }

  /** Position of the first occurrence of a word, for "X then Y" ordering; -1 when absent. */
  indexOf(word: string): number {
    const m = new RegExp(`\\b${word}`).exec(this.text);
    return m ? m.index : -1;
  }
}
