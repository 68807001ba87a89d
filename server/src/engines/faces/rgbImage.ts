/** A decoded picture: packed 8-bit RGB, row-major, no padding. The one pixel format of the faces engine. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}
