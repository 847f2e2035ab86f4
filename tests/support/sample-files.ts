import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A well-formed 1×1 PNG padded with a private ancillary chunk of random bytes, about `size`
 * bytes long. Every chunk has its length and CRC, so a sniffer that walks the chunks (as
 * `file-type` does, looking for APNG) names it image/png whatever the random bytes are.
 */
export function samplePng(size = 2048): Buffer {
  // width 1, height 1, 8-bit RGBA, no interlace
  const ihdr = Buffer.from('00000001000000010806000000', 'hex');
  const pixel = deflateSync(Buffer.from([0, 0, 0, 0, 0]));
  const fixed = 8 + (12 + 13) + (12 + pixel.length) + 12 + 12;
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    chunk('prVt', randomBytes(Math.max(0, size - fixed))),
    chunk('IDAT', pixel),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PDF signature, then random bytes: sniffed as application/pdf. */
export function samplePdf(size = 3000): Buffer {
  return Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(Math.max(0, size - 9))]);
}
