/** Writes one section of docs/benchmarks.md between `<!-- name:start -->` and `<!-- name:end -->`. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

const DOC = new URL('../../docs/benchmarks.md', import.meta.url);

export function machine(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${cpu}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at the end`;
}

export function writeSection(name: string, markdown: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Benchmarks\n\nWritten by `npm run bench`.\n';
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a >= 0 && b > a) doc = doc.slice(0, a) + block + doc.slice(b + end.length);
  else doc = `${doc.trimEnd()}\n\n${block}\n`;
  writeFileSync(DOC, doc);
}
