/** The camera move a prompt asks for: zoom in or out, pan left or right, tilt up or down. */
import { PromptWords } from '../image/promptWords.js';

export type CameraMove = 'zoom-in' | 'zoom-out' | 'pan-left' | 'pan-right' | 'tilt-up' | 'tilt-down';

export function cameraMoveFromPrompt(
  prompt: string | undefined,
  seed: number,
  allowed?: readonly CameraMove[],
): CameraMove {
  const p = new PromptWords(prompt ?? '');
  const pick: CameraMove | undefined = p.has(
    'zoom out',
    'pull back',
    'pull out',
    'dolly out',
    'reveal',
    'wider',
  )
    ? 'zoom-out'
    : p.has('zoom', 'zoom in', 'push in', 'closer', 'approach', 'dolly in', 'close up', 'closeup')
      ? 'zoom-in'
      : p.has('pan left', 'to the left', 'leftward', 'left')
        ? 'pan-left'
        : p.has('pan right', 'to the right', 'rightward', 'right', 'pan', 'sideways', 'across', 'travel')
          ? 'pan-right'
          : p.has('tilt up', 'look up', 'rise', 'rising', 'up', 'crane up', 'sky')
            ? 'tilt-up'
            : p.has('tilt down', 'look down', 'down', 'descend', 'falling')
              ? 'tilt-down'
              : undefined;
  const options = allowed ?? ['zoom-in', 'zoom-out', 'pan-left', 'pan-right', 'tilt-up', 'tilt-down'];
  if (pick && options.includes(pick)) return pick;
  return options[seed % options.length] ?? 'zoom-in';
}
