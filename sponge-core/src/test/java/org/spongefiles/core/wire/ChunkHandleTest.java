package org.spongefiles.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** A chunk handle on the wire and as a key: same chunk and generation, same handle. */
class ChunkHandleTest {

  @Test
  void roundTripsThroughItsTwelveBytes() throws WireException {
    ByteBuffer buffer = ByteBuffer.allocate(ChunkHandle.BYTES);
    new ChunkHandle(7, 1L << 40).put(buffer);
    assertThat(buffer.position()).isEqualTo(ChunkHandle.BYTES);
    buffer.flip();
    assertThat(ChunkHandle.get(buffer, "peer 10.0.0.1:7071"))
        .isEqualTo(new ChunkHandle(7, 1L << 40));
  }

  @Test
  void aTruncatedHandleNamesThePeer() {
    ByteBuffer buffer = ByteBuffer.allocate(6);
    buffer.putInt(7).flip();
    assertThatThrownBy(() -> ChunkHandle.get(buffer, "peer 10.0.0.1:7071"))
        .isInstanceOf(WireException.class)
        .hasMessageContaining("10.0.0.1:7071");
  }

  @Test
  void handlesAreEqualOnlyForTheSameChunkAndGeneration() {
    ChunkHandle handle = new ChunkHandle(3, 9);
    assertThat(handle).isEqualTo(new ChunkHandle(3, 9)).hasSameHashCodeAs(new ChunkHandle(3, 9));
    assertThat(handle).isNotEqualTo(new ChunkHandle(3, 10)).isNotEqualTo(new ChunkHandle(4, 9));
    assertThat(handle).isNotEqualTo("chunk 3 (generation 9)");
  }
}
