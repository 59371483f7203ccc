// Images the user pastes or drops into the chat's input: what the webview
// sends is checked here before it reaches the daemon (which checks the
// bytes themselves: type, size, that they are the type they say).

import type { PromptImage } from '../protocol';

/** The image types both dialects' services take (docs/protocol.md). */
export const imageTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** At most this many images go with one prompt, of at most maxImageBytes each. */
export const maxImages = 10;
export const maxImageBytes = 5 * 1024 * 1024;

/**
 * promptImages keeps the webview's images that can be sent: a known type,
 * base64 data of at most maxImageBytes; the rest are named in refused.
 */
export function promptImages(raw: unknown): { images: PromptImage[]; refused: string[] } {
  const images: PromptImage[] = [];
  const refused: string[] = [];
  if (!Array.isArray(raw)) return { images, refused };
  for (const item of raw) {
    const i = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const name = typeof i.name === 'string' && i.name ? i.name : 'an image';
    const data = typeof i.data === 'string' ? i.data : '';
    const mimeType = typeof i.mimeType === 'string' ? i.mimeType : '';
    if (!imageTypes.includes(mimeType)) {
      refused.push(`${name}: ${mimeType || 'no type'} (png, jpeg, gif and webp are sent)`);
    } else if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data) || data.length % 4 !== 0) {
      refused.push(`${name}: not an image's data`);
    } else if ((data.length * 3) / 4 > maxImageBytes) {
      refused.push(`${name}: over 5 MiB`);
    } else if (images.length >= maxImages) {
      refused.push(`${name}: at most ${maxImages} images a prompt`);
    } else {
      images.push({ mimeType, data });
    }
  }
  return { images, refused };
}

/** imagesLabel is how a prompt's images show under it in the chat. */
export function imagesLabel(n: number): string | undefined {
  return n === 0 ? undefined : n === 1 ? '1 image' : `${n} images`;
}
