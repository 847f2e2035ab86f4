import { fileTypeFromBuffer } from 'file-type';
import type { ContentSniffer } from '../../ports/content-sniffer.js';

/** Magic-number sniffing through `file-type` (the first 4100 bytes, its own reading window). */
export const fileTypeSniffer: ContentSniffer = {
  headBytes: 4100,
  async sniff(head) {
    return (await fileTypeFromBuffer(head))?.mime;
  },
};
