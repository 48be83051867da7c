// Evidence photos compressed on the phone: decode resized (createImageBitmap), by default long
// edge 1600 px, JPEG 0.8 (~170 KB from a camera photo: bench/sync_day.py). Re-encoding drops EXIF
// (privacy); time and GPS are recorded in the record itself. A municipality may choose another
// size (back office "Fotos de evidência", server/modules/fieldsync/photo_size.py): it reaches the
// phone as the field data's `photo_size`.
export const LONG_EDGE = 1600;
export const QUALITY = 0.8;

/** {longEdge, quality} from the kept field data (its `photo_size`), the defaults without one. */
export function photoSize(field) {
  const chosen = field?.photo_size || {};
  const longEdge = Number.isInteger(chosen.long_edge) && chosen.long_edge >= 320 ? chosen.long_edge : LONG_EDGE;
  const quality = typeof chosen.quality === 'number' && chosen.quality > 0 && chosen.quality <= 1 ? chosen.quality : QUALITY;
  return { longEdge, quality };
}

export function targetSize(width, height, longEdge = LONG_EDGE) {
  const scale = Math.min(1, longEdge / Math.max(width, height));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

export async function compressPhoto(file, { longEdge = LONG_EDGE, quality = QUALITY } = {}) {
  const probe = await createImageBitmap(file);
  const size = targetSize(probe.width, probe.height, longEdge);
  probe.close();
  const bitmap = await createImageBitmap(file, { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'high' });
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  canvas.getContext('2d').drawImage(bitmap, 0, 0);
  bitmap.close();
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('Falha ao comprimir a foto.'))), 'image/jpeg', quality));
}
