/**
 * The source face warped into a rectangle of the target picture: RGB as floats (so colour transfer and
 * blending do not round twice) and a coverage mask (1 where a mesh triangle landed).
 */
export interface FacePatch {
  left: number;
  top: number;
  width: number;
  height: number;
  rgb: Float32Array;
  coverage: Uint8Array;
}
