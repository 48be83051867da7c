// Evidence photos compressed on the phone: decode resized (createImageBitmap), long edge
// ~1600 px, JPEG ~0.8 (≈250–300 KB from a 2.8 MB original). Re-encoding drops EXIF (privacy);
// time and GPS are recorded in the record itself.
export const LONG_EDGE = 1600;
export const QUALITY = 0.8;

export function targetSize(width, height, longEdge = LONG_EDGE) {
  const scale = Math.min(1, longEdge / Math.max(width, height));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

export async function compressPhoto(file) {
  const probe = await createImageBitmap(file);
  const size = targetSize(probe.width, probe.height);
  probe.close();
  const bitmap = await createImageBitmap(file, { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'high' });
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  canvas.getContext('2d').drawImage(bitmap, 0, 0);
  bitmap.close();
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('Falha ao comprimir a foto.'))), 'image/jpeg', QUALITY));
}
