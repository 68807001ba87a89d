/**
 * The transformations video-to-video understands, each an ffmpeg filter, found in the prompt by its
 * words and applied in the order named. Speed changes carry the audio along (atempo); a reversed clip
 * has its audio reversed too.
 */
import type { PromptWords } from '../image/promptWords.js';

export interface VideoEffect {
  name: string;
  words: string[];
  /** Video filter chain (comma-separated ffmpeg filters). */
  video: string;
  /** Audio filter chain, when the effect changes timing. */
  audio?: string;
  /** Output duration = input duration * timeScale. */
  timeScale?: number;
  /** Needs the whole clip in memory (reverse): refused above a length. */
  buffersWholeClip?: boolean;
}

export const VIDEO_EFFECTS: VideoEffect[] = [
  {
    name: 'black and white',
    words: ['black and white', 'b&w', 'grayscale', 'greyscale', 'monochrome', 'noir'],
    video: 'hue=s=0',
  },
  {
    name: 'sepia',
    words: ['sepia', 'vintage', 'old film', 'antique', 'retro'],
    video: 'colorchannelmixer=.393:.769:.189:0:.349:.686:.168:0:.272:.534:.131',
  },
  {
    name: 'warm grade',
    words: ['warm', 'warmer', 'golden', 'sunset grade', 'orange'],
    video: 'colorchannelmixer=rr=1.12:gg=1.02:bb=0.85',
  },
  {
    name: 'cool grade',
    words: ['cool', 'cooler', 'cold', 'icy', 'blue', 'teal'],
    video: 'colorchannelmixer=rr=0.86:gg=1.0:bb=1.15',
  },
  {
    name: 'cinematic grade',
    words: ['cinematic', 'film look', 'movie', 'dramatic'],
    video: 'eq=contrast=1.15:saturation=0.85,curves=preset=medium_contrast,vignette',
  },
  { name: 'brighter', words: ['brighter', 'brighten', 'lighter', 'lighten'], video: 'eq=brightness=0.12' },
  {
    name: 'darker',
    words: ['darker', 'darken', 'dim', 'moody', 'night'],
    video: 'eq=brightness=-0.12:gamma=0.9',
  },
  {
    name: 'more saturated',
    words: ['saturate', 'saturated', 'vivid', 'vibrant', 'colorful', 'colourful'],
    video: 'eq=saturation=1.7',
  },
  {
    name: 'less saturated',
    words: ['desaturate', 'desaturated', 'muted', 'faded', 'washed out'],
    video: 'eq=saturation=0.45',
  },
  { name: 'blur', words: ['blur', 'blurry', 'blurred', 'dreamy', 'soft focus'], video: 'gblur=sigma=6' },
  { name: 'sharpen', words: ['sharpen', 'sharper', 'crisp'], video: 'unsharp=5:5:1.2:5:5:0' },
  { name: 'invert', words: ['invert', 'inverted', 'negative'], video: 'negate' },
  { name: 'mirror', words: ['mirror', 'mirrored', 'flip horizontally', 'horizontal flip'], video: 'hflip' },
  {
    name: 'flip vertically',
    words: ['flip vertically', 'vertical flip', 'upside down', 'upside-down'],
    video: 'vflip',
  },
  {
    name: 'edges',
    words: ['edge', 'edges', 'sketch', 'outline', 'line art', 'neon'],
    video: 'edgedetect=low=0.08:high=0.25:mode=colormix',
  },
  {
    name: 'cartoon',
    words: ['cartoon', 'comic', 'anime', 'posterize', 'posterise', 'cel shaded', 'painting'],
    video:
      "gblur=sigma=1.5,lutrgb=r='floor(val/51)*51':g='floor(val/51)*51':b='floor(val/51)*51',eq=saturation=1.4",
  },
  {
    name: 'pixelate',
    words: ['pixelate', 'pixelated', 'pixel art', '8-bit', 'mosaic'],
    video: 'scale=iw/16:ih/16:flags=neighbor,scale=iw*16:ih*16:flags=neighbor',
  },
  {
    name: 'speed up',
    words: [
      'speed up',
      'faster',
      'fast forward',
      'fast-forward',
      'timelapse',
      'time-lapse',
      'double speed',
      '2x',
    ],
    video: 'setpts=0.5*PTS',
    audio: 'atempo=2.0',
    timeScale: 0.5,
  },
  {
    name: 'slow down',
    words: ['slow down', 'slow motion', 'slow-motion', 'slower', 'slowmo', 'half speed'],
    video: 'setpts=2.0*PTS',
    audio: 'atempo=0.5',
    timeScale: 2,
  },
  {
    name: 'reverse',
    words: ['reverse', 'reversed', 'backwards', 'rewind'],
    video: 'reverse',
    audio: 'areverse',
    buffersWholeClip: true,
  },
];

export function effectsFromPrompt(prompt: PromptWords): VideoEffect[] {
  const found: Array<[number, VideoEffect]> = [];
  for (const effect of VIDEO_EFFECTS) {
    let first = -1;
    for (const word of effect.words) {
      if (!prompt.has(word)) continue;
      const at = prompt.text.indexOf(word.split(' ')[0] ?? word);
      if (at >= 0 && (first < 0 || at < first)) first = at;
    }
    if (first >= 0) found.push([first, effect]);
  }
  found.sort((a, b) => a[0] - b[0]);
  // Speeding up and slowing down cancel out: keep the first named.
  const speed = found.find(([, e]) => e.timeScale !== undefined);
  return found.filter(([, e]) => e.timeScale === undefined || e === speed?.[1]).map(([, e]) => e);
}
