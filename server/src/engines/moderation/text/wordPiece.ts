/**
 * A BERT WordPiece tokenizer (vocab.txt), for local ONNX text classifiers of the BERT family
 * (BERT, DistilBERT, multilingual BERT): basic tokenisation (optional lower-casing and accent
 * stripping, split on whitespace and punctuation, each CJK ideograph its own token), then greedy
 * longest-match-first word pieces with the `##` continuation prefix, wrapped in [CLS] ... [SEP].
 */
import { readFileSync } from 'node:fs';

export interface WordPieceOptions {
  lowercase: boolean;
  maxLength: number;
}

export interface Encoded {
  ids: number[];
  mask: number[];
}

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{2fa1f}]/u;
const PUNCT = /[\p{P}\p{S}]/u;

export class WordPieceTokenizer {
  private readonly vocab: Map<string, number>;
  private readonly unk: number;
  private readonly cls: number;
  private readonly sep: number;

  constructor(
    vocabLines: readonly string[],
    private readonly options: WordPieceOptions,
  ) {
    this.vocab = new Map(vocabLines.map((token, id) => [token.replace(/\r$/, ''), id]));
    const special = (t: string) => {
      const id = this.vocab.get(t);
      if (id === undefined) throw new Error(`vocab has no ${t} token`);
      return id;
    };
    this.unk = special('[UNK]');
    this.cls = special('[CLS]');
    this.sep = special('[SEP]');
  }

  static fromFile(path: string, options: WordPieceOptions): WordPieceTokenizer {
    return new WordPieceTokenizer(readFileSync(path, 'utf8').split('\n'), options);
  }

  /** Whitespace/punctuation/CJK split after normalisation. */
  basicTokens(text: string): string[] {
    let s = text.normalize('NFC');
    if (this.options.lowercase)
      s = s
        .toLowerCase()
        .normalize('NFD')
        .replace(/\p{Mn}+/gu, '');
    const out: string[] = [];
    let word = '';
    const flush = () => {
      if (word) out.push(word);
      word = '';
    };
    for (const ch of s) {
      if (/\s/u.test(ch)) flush();
      else if (PUNCT.test(ch) || CJK.test(ch)) {
        flush();
        out.push(ch);
      } else word += ch;
    }
    flush();
    return out;
  }

  private pieces(word: string): number[] {
    const chars = [...word];
    if (chars.length > 100) return [this.unk];
    const ids: number[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let found: number | undefined;
      while (start < end) {
        const piece = (start > 0 ? '##' : '') + chars.slice(start, end).join('');
        found = this.vocab.get(piece);
        if (found !== undefined) break;
        end -= 1;
      }
      if (found === undefined) return [this.unk];
      ids.push(found);
      start = end;
    }
    return ids;
  }

  encode(text: string): Encoded {
    const ids = [this.cls];
    for (const word of this.basicTokens(text)) {
      ids.push(...this.pieces(word));
      if (ids.length >= this.options.maxLength - 1) break;
    }
    ids.length = Math.min(ids.length, this.options.maxLength - 1);
    ids.push(this.sep);
    return { ids, mask: ids.map(() => 1) };
  }
}
