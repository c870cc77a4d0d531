package org.spongefiles.leaky;

/**
 * A window on bytes owned by someone else (a page, a key's array or a scratch buffer), valid until
 * the next read through the same cursor. Reused to keep reads allocation-free.
 */
final class ByteView {
  byte[] bytes;
  int offset;
  int length;

  void set(byte[] bytes, int offset, int length) {
    this.bytes = bytes;
    this.offset = offset;
    this.length = length;
  }
}
