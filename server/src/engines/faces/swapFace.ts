/**
 * POST /face-swap's engine (spec 4.5): the source face into every face of the target image, GIF or
 * video. This is a classical swap (mesh warp + colour transfer + feathered mask), not a neural one:
 * no neural face swapper ships in any npm or Debian package. See docs/faces.md.
 */
import { EngineError, type FaceSwapEngine } from '../types.js';
import { stillFormatFor } from './outputFormat.js';
import { loadSourceFace } from './sourceFace.js';
import { swapGif } from './swapGif.js';
import { swapImage } from './swapImage.js';
import { swapVideo } from './swapVideo.js';
import { videoContainerFor } from './videoContainer.js';

export const faceSwapEngine: FaceSwapEngine = {
  async run({ sourcePath, targetPath, targetMime, workDir, signal }) {
    signal.throwIfAborted();
    const still = stillFormatFor(targetMime);
    const container = videoContainerFor(targetMime);
    if (!still && !container && targetMime !== 'image/gif') {
      throw new EngineError(
        `target_media type ${targetMime} is not supported: use an image, GIF, mp4, webm or mkv`,
      );
    }
    const source = await loadSourceFace(sourcePath);
    signal.throwIfAborted();
    if (still) return swapImage(source, targetPath, still, workDir, signal);
    if (container) return swapVideo(source, targetPath, container, workDir, signal);
    return swapGif(source, targetPath, workDir, signal);
  },
};
