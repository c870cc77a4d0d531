package org.spongefiles.leaky;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VarintTest {
  @Test
  void lengthsComeBackWithTheBytesTheyTook() {
    byte[] bytes = new byte[Varint.MAX_BYTES];
    int[] lengths = {0, 1, 127, 128, 16_383, 16_384, 1 << 21, 1 << 28, Integer.MAX_VALUE};
    int[] sizes = {1, 1, 1, 2, 2, 3, 4, 5, 5};
    for (int i = 0; i < lengths.length; i++) {
      int n = Varint.write(lengths[i], bytes, 0);
      assertThat(n).as("bytes for %d", lengths[i]).isEqualTo(sizes[i]);
      assertThat(Varint.read(bytes, 0, n)).isEqualTo((long) lengths[i] << 8 | n);
      if (n > 1) {
        assertThat(Varint.read(bytes, 0, n - 1)).as("cut off").isEqualTo(Varint.TRUNCATED);
      }
    }
  }

  @Test
  void bytesNoLengthCanProduceAreCorrupt() {
    byte[] sixBytes = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0};
    assertThat(Varint.read(sixBytes, 0, sixBytes.length)).isEqualTo(Varint.CORRUPT);
    byte[] pastIntRange = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x08};
    assertThat(Varint.read(pastIntRange, 0, pastIntRange.length)).isEqualTo(Varint.CORRUPT);
  }
}
