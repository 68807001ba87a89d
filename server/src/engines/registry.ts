/**
 * Maps the catalog's `engine` ids to engine objects, and gives the face and moderation engines.
 *
 * Engines live in engines/<kind>/<task>.ts, each exporting `<name>Engine`. They are loaded once per
 * process, lazily (heavy models load only in processes that use them). An engine is registered under
 * its own `id` and under its module name ("image/textToImage"), so the catalog may use either.
 * `gateway` forwards to an upstream server of the same API (catalog `engine_options`).
 */
import type { TaskName } from '@mediagen/core';
import type { DetectFaces, FaceSwapEngine, GenerationEngine, ModerationEngine } from './types.js';

/** [module path under engines/, exported name] of every generation engine. */
export const GENERATION_ENGINE_MODULES: ReadonlyArray<readonly [string, string]> = [
  ['image/textToImage', 'textToImageEngine'],
  ['image/imageToImage', 'imageToImageEngine'],
  ['video/textToVideo', 'textToVideoEngine'],
  ['video/imageToVideo', 'imageToVideoEngine'],
  ['video/referenceToVideo', 'referenceToVideoEngine'],
  ['video/videoToVideo', 'videoToVideoEngine'],
  ['video/videoExtend', 'videoExtendEngine'],
  ['audio/textToSpeech', 'textToSpeechEngine'],
  ['audio/textToMusic', 'textToMusicEngine'],
  ['gateway', 'gatewayEngine'],
];

export class EngineUnavailableError extends Error {
  override name = 'EngineUnavailableError';
}

// Module specifiers are built at run time so that this file compiles while engines are being added.
async function importEngineModule(path: string): Promise<Record<string, unknown> | undefined> {
  const url = new URL(`./${path}.js`, import.meta.url).href;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && String((err as Error).message).includes(path)) return undefined;
    throw err;
  }
}

let generationEngines: Promise<Map<string, GenerationEngine>> | undefined;

export function loadGenerationEngines(): Promise<Map<string, GenerationEngine>> {
  generationEngines ??= (async () => {
    const map = new Map<string, GenerationEngine>();
    for (const [path, name] of GENERATION_ENGINE_MODULES) {
      const mod = await importEngineModule(path);
      const engine = mod?.[name] as GenerationEngine | undefined;
      if (!engine) continue;
      map.set(path, engine);
      if (engine.id) map.set(engine.id, engine);
    }
    return map;
  })();
  return generationEngines;
}

/** The engine for a catalog engine id and task; throws EngineUnavailableError when none serves it. */
export async function generationEngine(engineId: string, task: TaskName): Promise<GenerationEngine> {
  const engines = await loadGenerationEngines();
  const engine = engines.get(engineId);
  if (!engine) throw new EngineUnavailableError(`engine "${engineId}" is not installed on this server`);
  if (!engine.tasks.includes(task)) {
    throw new EngineUnavailableError(`engine "${engineId}" does not do ${task}`);
  }
  return engine;
}

let moderation: Promise<ModerationEngine> | undefined;
export function moderationEngine(): Promise<ModerationEngine> {
  moderation ??= importEngineModule('moderation/index').then((mod) => {
    const engine = mod?.moderationEngine as ModerationEngine | undefined;
    if (!engine) throw new EngineUnavailableError('the moderation engine is not installed on this server');
    return engine;
  });
  return moderation;
}

export interface FaceEngines {
  detectFaces: DetectFaces;
  faceSwapEngine: FaceSwapEngine;
  warmUpFaces: () => Promise<void>;
}

let faces: Promise<FaceEngines> | undefined;
export function faceEngines(): Promise<FaceEngines> {
  faces ??= importEngineModule('faces/index').then((mod) => {
    if (!mod?.detectFaces || !mod.faceSwapEngine) {
      throw new EngineUnavailableError('the face engines are not installed on this server');
    }
    return {
      detectFaces: mod.detectFaces as DetectFaces,
      faceSwapEngine: mod.faceSwapEngine as FaceSwapEngine,
      warmUpFaces: (mod.warmUpFaces as (() => Promise<void>) | undefined) ?? (async () => undefined),
    };
  });
  return faces;
}

let voices: Promise<string[] | undefined> | undefined;
/** Voice ids of the built-in text-to-speech engine (engines/audio/voices.ts), if installed. */
export function builtInVoices(): Promise<string[] | undefined> {
  voices ??= importEngineModule('audio/voices').then((mod) =>
    typeof mod?.listVoices === 'function' ? (mod.listVoices as () => string[])() : undefined,
  );
  return voices;
}
