/** A small leveled logger writing one line per event to stderr (stdout is kept for the start banner). */
export interface Logger {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;

export function createLogger(level: keyof typeof LEVELS, name = 'mediagen'): Logger {
  const min = LEVELS[level];
  const write = (l: keyof typeof LEVELS) => (msg: string) => {
    if (LEVELS[l] >= min)
      process.stderr.write(`${new Date().toISOString()} ${l.padEnd(5)} [${name}] ${msg}\n`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
