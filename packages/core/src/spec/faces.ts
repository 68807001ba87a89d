import { z } from 'zod';
import { HttpUrl } from './common.js';

/** POST /face-swap/detect body (spec 4.4). */
export const DetectFacesRequest = z.object({
  source_image: HttpUrl,
});
export type DetectFacesRequest = z.infer<typeof DetectFacesRequest>;

/** Detect response (spec 2.3): `message` is present only when no face was found. */
export const DetectedFaces = z.looseObject({
  faces: z.array(z.string()),
  message: z.string().optional(),
});
export type DetectedFaces = z.infer<typeof DetectedFaces>;

/** POST /face-swap body (spec 4.5). */
export const FaceSwapRequest = z.object({
  source_face_url: HttpUrl,
  target_media: HttpUrl,
});
export type FaceSwapRequest = z.infer<typeof FaceSwapRequest>;
