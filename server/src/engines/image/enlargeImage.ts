/**
 * Enlarging a picture without the half-pixel shift of sharp's resize. sharp 0.34's `resize` aligns an
 * enlargement on pixel corners instead of pixel centres, so the picture moves half an output pixel
 * right and down (and it uses its cubic interpolator whatever kernel is asked for): on real photos
 * halved and enlarged back that costs about 2.5 dB of PSNR (docs/engines.md, "Upscaling").
 *
 * Here output pixel `j` samples input `(j + 0.5) / k - 0.5` (centres aligned), with a libvips
 * interpolator (bicubic unless asked otherwise) through sharp's `affine`. The picture is first padded
 * by copying its edge pixels, so the interpolator near the border reads the edge instead of black, and
 * the exact output window is cut out of the transformed picture afterwards.
 */
import sharp from 'sharp';
import type { RawImage } from './imageEdits.js';

/** Edge pixels copied around the picture before the transform (the bicubic reads 2 on each side). */
const PAD = 4;

/** An RGB raster to enlarge (a RawImage, or any packed 3-channel pixels). */
type RgbPixels = Pick<RawImage, 'width' | 'height'> & { data: Uint8Array };

/**
 * `image` enlarged to exactly `width` x `height` (each at least the image's own size). image-to-image
 * uses the default bicubic; the upscale benchmark also measures libvips' nohalo through here.
 */
export async function enlargeCentred(
  image: RgbPixels,
  width: number,
  height: number,
  interpolator: 'bicubic' | 'nohalo' = 'bicubic',
): Promise<RawImage> {
  if (width < image.width || height < image.height) {
    throw new RangeError(`enlargeCentred: ${width}x${height} is smaller than ${image.width}x${image.height}`);
  }
  const kx = width / image.width;
  const ky = height / image.height;
  const padded = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .extend({ top: PAD, bottom: PAD, left: PAD, right: PAD, extendWith: 'copy' })
    .raw()
    .toBuffer();
  // Padded input x maps to output kx * x + odx; the window starts at left = ceil(kx * PAD), where the
  // original's x = 0 must land at (kx - 1) / 2.
  const left = Math.ceil(kx * PAD);
  const top = Math.ceil(ky * PAD);
  const { data, info } = await sharp(padded, {
    raw: { width: image.width + 2 * PAD, height: image.height + 2 * PAD, channels: 3 },
  })
    .affine(
      [
        [kx, 0],
        [0, ky],
      ],
      { odx: (kx - 1) / 2 + left - kx * PAD, ody: (ky - 1) / 2 + top - ky * PAD, interpolator },
    )
    .raw()
    .toBuffer({ resolveWithObject: true });
  const window = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .extract({ left, top, width, height })
    .raw()
    .toBuffer();
  return { data: window, width, height, channels: 3 };
}
