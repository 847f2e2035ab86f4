/**
 * Tells a file's type from its first bytes (magic numbers), never from what the client claimed
 * (issue 51): uploads are checked against a column's `accept` by this.
 *
 * @example
 * await sniffer.sniff(firstBytes); // 'image/png', or undefined for bytes without a signature (text)
 */
export interface ContentSniffer {
  /** How many leading bytes `sniff` wants to see. */
  readonly headBytes: number;
  /** The media type the bytes' signature names, or undefined when they carry none. */
  sniff(head: Uint8Array): Promise<string | undefined>;
}
