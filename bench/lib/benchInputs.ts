/**
 * The input media the generation benchmarks feed the engines: a 1024x1024 photo-like picture (the
 * scene painter), a 5 s 1280x720 H.264 clip with AAC sound and a 10 s MP3 tune (ffmpeg test sources).
 */
import { join } from 'node:path';
import { renderScene } from '../../server/src/engines/image/textToImage.js';
import { ffmpeg } from '../../server/src/media/ffmpeg.js';

export interface BenchInputs {
  photo: string;
  clip: string;
  tune: string;
}

/** Writes photo.jpg, clip.mp4 and tune.mp3 into `dir`; answers their paths. */
export async function makeBenchInputs(dir: string): Promise<BenchInputs> {
  const inputs = { photo: join(dir, 'photo.jpg'), clip: join(dir, 'clip.mp4'), tune: join(dir, 'tune.mp3') };
  await renderScene('a harbour town by the sea at sunset with boats and birds', 3, 1024, 1024)
    .jpeg({ quality: 88 })
    .toFile(inputs.photo);
  await ffmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc2=s=1280x720:r=24:d=5'],
    ...['-f', 'lavfi', '-i', 'sine=f=440:d=5'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'],
    inputs.clip,
  ]);
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=f=330:d=10', '-c:a', 'libmp3lame', inputs.tune]);
  return inputs;
}
