/** Fatal: bytes that are not UTF-8 throw instead of becoming U+FFFD. A leading BOM is kept, not eaten. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The text a header value's bytes spell as UTF-8, or undefined when they are not valid UTF-8.
 * Node hands header values over as latin1 (one character per byte), so the bytes are exact; read
 * leniently, every invalid sequence would become U+FFFD and distinct values would fold into one.
 */
export function headerUtf8(value: string): string | undefined {
  // Only a byte per character can come off the wire (inject() can pass anything).
  if (/[\u0100-\uffff]/.test(value)) return undefined;
  try {
    return STRICT_UTF8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return undefined;
  }
}
