package org.spongefiles.core.wire;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** A header that is not ours says what it is when it can tell. */
class FrameTest {

  @Test
  void aTlsRecordWhereAFrameWasExpectedNamesTheTlsKey() {
    ByteBuffer clientHello = ByteBuffer.allocate(Frame.HEADER_SIZE);
    clientHello.put(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00}).rewind();
    assertThatThrownBy(() -> Frame.checkHeader(clientHello, 4096, "peer:1"))
        .isInstanceOf(WireException.class)
        .hasMessageContaining("bad magic 0x16030102")
        .hasMessageContaining("sponge.tls.enabled=true");
    ByteBuffer other = ByteBuffer.allocate(Frame.HEADER_SIZE).putInt(0x12345678).rewind();
    assertThatThrownBy(() -> Frame.checkHeader(other, 4096, "peer:1"))
        .hasMessageContaining("bad magic 0x12345678")
        .hasMessageNotContaining("tls");
  }
}
