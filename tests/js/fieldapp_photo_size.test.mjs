// The municipality's evidence photo size reaches the compression through the kept field data.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { mergeField } from '../../pwa/js/fiscal/field-merge.js';
import { LONG_EDGE, QUALITY, photoSize, targetSize } from '../../pwa/js/fiscal/photos.js';

test('the chosen size is kept across deltas and used; without one, the defaults', () => {
  assert.deepEqual(photoSize(null), { longEdge: LONG_EDGE, quality: QUALITY });
  const snapshot = mergeField(null, { snapshot: true, cursor: 1, photo_size: { long_edge: 2048, quality: 0.7 } });
  assert.deepEqual(photoSize(snapshot), { longEdge: 2048, quality: 0.7 });
  const delta = mergeField(snapshot, { snapshot: false, cursor: 2 }); // an older server's answer lacks it
  assert.deepEqual(photoSize(delta), { longEdge: 2048, quality: 0.7 });
  const changed = mergeField(delta, { snapshot: false, cursor: 3, photo_size: { long_edge: 1280, quality: 0.6 } });
  assert.deepEqual(photoSize(changed), { longEdge: 1280, quality: 0.6 });
  assert.deepEqual(targetSize(4000, 3000, photoSize(changed).longEdge), { width: 1280, height: 960 });
  assert.deepEqual(photoSize({ photo_size: { long_edge: 'x', quality: 7 } }), { longEdge: LONG_EDGE, quality: QUALITY });
});
