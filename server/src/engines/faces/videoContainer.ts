/**
 * How a swapped video is written for each target container (spec: mp4, webm, mkv keep their format).
 * Video is re-encoded (every frame changed); audio is copied untouched, so it is exactly the target's.
 */
export interface VideoContainer {
  mime: string;
  ext: 'mp4' | 'webm' | 'mkv';
  /** ffmpeg output options for the video stream and the container. */
  videoArgs: string[];
}

const H264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-pix_fmt', 'yuv420p'];

export function videoContainerFor(mime: string): VideoContainer | undefined {
  switch (mime) {
    case 'video/mp4':
      return { mime, ext: 'mp4', videoArgs: [...H264, '-movflags', '+faststart', '-f', 'mp4'] };
    case 'video/webm':
      return {
        mime,
        ext: 'webm',
        videoArgs: [
          ...['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1'],
          ...['-b:v', '0', '-crf', '30', '-pix_fmt', 'yuv420p', '-f', 'webm'],
        ],
      };
    case 'video/x-matroska':
    case 'video/matroska':
    case 'video/mkv':
      return { mime: 'video/x-matroska', ext: 'mkv', videoArgs: [...H264, '-f', 'matroska'] };
    default:
      return undefined;
  }
}
