/** Writing synthesised PCM (Float32, -1..1, interleaved) as a 16-bit WAV file that ffmpeg reads. */
import { writeFile } from 'node:fs/promises';
import { endianness } from 'node:os';

export async function writeWav(
  path: string,
  samples: Float32Array,
  sampleRate: number,
  channels: number,
): Promise<void> {
  const pcm = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i] ?? 0;
    pcm[i] = Math.round((v > 1 ? 1 : v < -1 ? -1 : v) * 32767);
  }
  // WAV is little-endian, like every machine Node runs on in practice; swap on the rare big-endian one.
  if (endianness() === 'BE')
    for (let i = 0; i < pcm.length; i++) pcm[i] = ((pcm[i]! & 0xff) << 8) | ((pcm[i]! >> 8) & 0xff);
  const data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  await writeFile(path, Buffer.concat([header, data]));
}
