// The thumbnail pack (GET /api/v1/field/photos?ids=…): per operator, id and length as u32
// big-endian, then the JPEG bytes. Written here by hand, byte by byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { unpackPhotos } from '../../pwa/js/fiscal/field-data.js';

test('a pack of two photos unpacks to each id with its bytes', () => {
  const bytes = new Uint8Array([
    0, 0, 0, 7, 0, 0, 0, 3, 0xff, 0xd8, 0xff,
    0, 1, 0, 0, 0, 0, 0, 2, 0xff, 0xd9,
  ]);
  const photos = unpackPhotos(bytes);
  assert.deepEqual(photos.map(([id, jpeg]) => [id, [...jpeg]]), [[7, [0xff, 0xd8, 0xff]], [65536, [0xff, 0xd9]]]);
  assert.deepEqual(unpackPhotos(new Uint8Array(0)), []);
});
