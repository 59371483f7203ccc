import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imagesLabel, maxImages, promptImages } from '../logic/images';
import { promptParams } from '../protocol';

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

test('pasted images: known types and base64 data go, the rest are named', () => {
  const { images, refused } = promptImages([
    { name: 'shot.png', mimeType: 'image/png', data: png },
    { name: 'icon.svg', mimeType: 'image/svg+xml', data: 'PHN2Zy8+' },
    { name: 'broken.png', mimeType: 'image/png', data: 'not base64!' },
    { name: 'huge.jpg', mimeType: 'image/jpeg', data: 'A'.repeat(8 * 1024 * 1024) },
    'garbage',
  ]);
  assert.deepEqual(images, [{ mimeType: 'image/png', data: png }]);
  assert.deepEqual(refused, [
    'icon.svg: image/svg+xml (png, jpeg, gif and webp are sent)',
    'broken.png: not an image\'s data',
    'huge.jpg: over 5 MiB',
    'an image: no type (png, jpeg, gif and webp are sent)',
  ]);
  assert.deepEqual(promptImages(undefined), { images: [], refused: [] });
  const many = promptImages(Array.from({ length: maxImages + 1 }, (_, i) => ({ name: `s${i}.png`, mimeType: 'image/png', data: png })));
  assert.equal(many.images.length, maxImages);
  assert.deepEqual(many.refused, [`s${maxImages}.png: at most ${maxImages} images a prompt`]);
});

test('images go with the prompt, and are named under it', () => {
  assert.deepEqual(promptParams('look', { sessionId: 's1', images: [{ mimeType: 'image/png', data: png }] }),
    { prompt: 'look', sessionId: 's1', images: [{ mimeType: 'image/png', data: png }] });
  assert.deepEqual(promptParams('look', { images: [] }), { prompt: 'look' });
  assert.equal(imagesLabel(0), undefined);
  assert.equal(imagesLabel(1), '1 image');
  assert.equal(imagesLabel(3), '3 images');
});
