/**
 * A still image brought to life with a smooth camera move (zoom in/out, pan, tilt) through ffmpeg's
 * zoompan filter. The still is first cropped to the frame's aspect ratio around its most interesting
 * region (sharp's attention strategy) and enlarged to twice the frame, so zoompan's whole-pixel steps
 * are half a pixel on screen. Used by image-to-video, reference-to-video and video-extend.
 */
import sharp from 'sharp';
import type { CameraMove } from './cameraMove.js';

/** Eased progress 0..1 over `frames` output frames, as a zoompan expression. */
function progress(frames: number): string {
  return `(0.5-0.5*cos(PI*on/${Math.max(1, frames - 1)}))`;
}

/** The zoompan filter for `move` over `frames` frames at width x height (input: one still frame). */
export function zoompanFilter(
  move: CameraMove,
  frames: number,
  width: number,
  height: number,
  fps: number,
  strength = 1,
  fromFullFrame = false,
): string {
  const p = progress(frames);
  const amount = (0.25 * strength).toFixed(3);
  // Pans and tilts need room: a steady zoom, or (fromFullFrame) one that grows from the whole frame so
  // that the first output frame is the still itself (video-extend's seamless join).
  const hold = fromFullFrame ? `1+${(0.2 * strength).toFixed(3)}*${p}` : (1 + 0.2 * strength).toFixed(3);
  if (fromFullFrame && move === 'zoom-out') move = 'zoom-in';
  const centreX = `(iw-iw/zoom)/2`;
  const centreY = `(ih-ih/zoom)/2`;
  let z = hold;
  let x = centreX;
  let y = centreY;
  switch (move) {
    case 'zoom-in':
      z = `1+${amount}*${p}`;
      break;
    case 'zoom-out':
      z = `1+${amount}-${amount}*${p}`;
      break;
    case 'pan-right':
      x = `(iw-iw/zoom)*${p}`;
      break;
    case 'pan-left':
      x = `(iw-iw/zoom)*(1-${p})`;
      break;
    case 'tilt-up':
      y = `(ih-ih/zoom)*(1-${p})`;
      break;
    case 'tilt-down':
      y = `(ih-ih/zoom)*${p}`;
      break;
  }
  return `zoompan=z='${z}':x='${x}':y='${y}':d=${frames}:s=${width}x${height}:fps=${fps}`;
}

/** Writes the still cropped to width:height (attention) and enlarged for smooth sub-pixel motion. */
export async function prepareStill(
  image: sharp.Sharp,
  width: number,
  height: number,
  path: string,
  position: 'attention' | 'centre' = 'attention',
): Promise<void> {
  const scale = Math.max(1, Math.min(2, 4096 / Math.max(width, height)));
  await image
    .resize(Math.round(width * scale), Math.round(height * scale), {
      fit: 'cover',
      position: position === 'attention' ? sharp.strategy.attention : 'centre',
    })
    .removeAlpha()
    .png({ compressionLevel: 1 })
    .toFile(path);
}
