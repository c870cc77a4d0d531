package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ChunkRange;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.daemon.netty.InboundFrame;

/**
 * WRITE data streamed into its chunk on an in-memory channel: copied as it arrives, read straight
 * into the chunk, dropped once the chunk is no longer the peer's, and whole frames otherwise.
 */
class ServerFrameDecoderTest {
  private static final int LENGTH = 5000;

  /** One chunk of {@code 2 * LENGTH} bytes; ownership can be taken away. */
  private static final class Chunk implements ServerFrameDecoder.WriteTargets {
    final ByteBuffer memory = ByteBuffer.allocate(2 * LENGTH);
    boolean owned = true;

    @Override
    public ByteBuffer open(ChunkRange range) {
      if (!owned) {
        return null;
      }
      ByteBuffer target = memory.duplicate();
      target.position(range.offset).limit(range.offset + range.length);
      return target.slice();
    }

    @Override
    public void checkOwned(ChunkRange range) throws WireException {
      if (!owned) {
        throw new WireException(ErrorCode.NO_SUCH_CHUNK, "test", "chunk " + range.chunk.index);
      }
    }

    byte[] bytes(int offset, int length) {
      byte[] out = new byte[length];
      memory.duplicate().position(offset).get(out);
      return out;
    }
  }

  private static byte[] data() {
    byte[] data = new byte[LENGTH];
    new SplittableRandom(3).nextBytes(data);
    return data;
  }

  private static ByteBuf write(long id, int offset, byte[] data) {
    ByteBuffer buffer =
        ByteBuffer.allocate(Frame.HEADER_SIZE + ChunkRange.WRITE_HEAD + data.length);
    Frame.putHeader(buffer, Opcode.WRITE, 0, id, ChunkRange.WRITE_HEAD + data.length);
    new ChunkRange(new ChunkHandle(7, 42), offset, data.length).putWriteHead(buffer);
    buffer.put(data).flip();
    return Unpooled.wrappedBuffer(buffer);
  }

  private static ByteBuf stats(long id) {
    ByteBuffer buffer = ByteBuffer.allocate(Frame.HEADER_SIZE);
    Frame.putHeader(buffer, Opcode.STATS, 0, id, 0);
    return Unpooled.wrappedBuffer(buffer.flip());
  }

  private static EmbeddedChannel channel(ServerFrameDecoder decoder, Chunk chunk) {
    decoder.authenticated(1 << 20, chunk);
    return new EmbeddedChannel(decoder);
  }

  private static void feed(EmbeddedChannel channel, ByteBuf stream, int piece) {
    while (stream.isReadable()) {
      channel.writeInbound(stream.readRetainedSlice(Math.min(piece, stream.readableBytes())));
    }
    stream.release();
  }

  @Test
  void writeDataSplitAnywhereLandsInTheChunkAndTheNextFrameFollows() {
    Chunk chunk = new Chunk();
    EmbeddedChannel channel = channel(new ServerFrameDecoder(64, "test"), chunk);
    byte[] data = data();
    ByteBuf stream = Unpooled.buffer();
    stream.writeBytes(write(5, 100, data));
    stream.writeBytes(stats(6));
    feed(channel, stream, 333);

    ServerFrameDecoder.StreamedWrite written = channel.readInbound();
    assertThat(written.requestId).isEqualTo(5);
    assertThat(written.refusal()).isNull();
    assertThat(written.range.chunk.index).isEqualTo(7);
    assertThat(written.range.chunk.generation).isEqualTo(42);
    assertThat(written.range.offset).isEqualTo(100);
    assertThat(written.range.length).isEqualTo(LENGTH);
    assertThat(chunk.bytes(100, LENGTH)).isEqualTo(data);
    InboundFrame next = channel.readInbound();
    assertThat(next.opcode).isEqualTo(Opcode.STATS);
    assertThat(next.requestId).isEqualTo(6);
    next.release();
    assertThat((Object) channel.readInbound()).isNull();
    assertThat(channel.finish()).isFalse();
  }

  @Test
  void readsAfterTheHeadGoStraightIntoTheChunk() {
    Chunk chunk = new Chunk();
    ServerFrameDecoder decoder = new ServerFrameDecoder(64, "test");
    EmbeddedChannel channel = channel(decoder, chunk);
    byte[] data = data();
    ByteBuf stream = write(9, 0, data);
    int first = Frame.HEADER_SIZE + ChunkRange.WRITE_HEAD + 1000;
    assertThat(decoder.chunkReadBuffer()).isNull(); // no WRITE under way yet
    channel.writeInbound(stream.readRetainedSlice(first));

    ByteBuf into = decoder.chunkReadBuffer();
    assertThat(into.writableBytes()).isEqualTo(LENGTH - 1000);
    into.writeBytes(stream, 3000); // what a read from the socket does
    channel.writeInbound(into);
    assertThat((Object) channel.readInbound()).isNull();
    into = decoder.chunkReadBuffer();
    assertThat(into.writableBytes()).isEqualTo(LENGTH - 4000);
    into.writeBytes(stream);
    stream.release();
    channel.writeInbound(into);

    ServerFrameDecoder.StreamedWrite written = channel.readInbound();
    assertThat(written.requestId).isEqualTo(9);
    assertThat(written.refusal()).isNull();
    assertThat(chunk.bytes(0, LENGTH)).isEqualTo(data);
    assertThat(decoder.chunkReadBuffer()).isNull(); // back to ordinary buffers
    assertThat(channel.finish()).isFalse();
  }

  @Test
  void aChunkLostMidwayIsNotWrittenAgainAndTheWriteIsRefused() {
    Chunk chunk = new Chunk();
    ServerFrameDecoder decoder = new ServerFrameDecoder(64, "test");
    EmbeddedChannel channel = channel(decoder, chunk);
    byte[] data = data();
    ByteBuf stream = Unpooled.buffer();
    stream.writeBytes(write(3, 0, data));
    stream.writeBytes(stats(4));
    channel.writeInbound(
        stream.readRetainedSlice(Frame.HEADER_SIZE + ChunkRange.WRITE_HEAD + 2000));
    chunk.owned = false; // freed by another connection of the task
    assertThat(decoder.chunkReadBuffer()).isNull();
    feed(channel, stream, 1000);

    ServerFrameDecoder.StreamedWrite written = channel.readInbound();
    assertThat(written.refusal().code()).isEqualTo(ErrorCode.NO_SUCH_CHUNK);
    byte[] kept = chunk.bytes(0, LENGTH);
    for (int i = 0; i < LENGTH; i++) {
      assertThat(kept[i]).as("byte %d", i).isEqualTo(i < 2000 ? data[i] : 0);
    }
    InboundFrame next = channel.readInbound();
    assertThat(next.opcode).isEqualTo(Opcode.STATS);
    next.release();
    assertThat(channel.finish()).isFalse();
  }

  @Test
  void aWriteToAChunkNotOwnedComesWholeToBeRefusedByTheHandler() {
    Chunk chunk = new Chunk();
    chunk.owned = false;
    EmbeddedChannel channel = channel(new ServerFrameDecoder(64, "test"), chunk);
    feed(channel, write(8, 0, data()), 700);

    InboundFrame frame = channel.readInbound();
    assertThat(frame.opcode).isEqualTo(Opcode.WRITE);
    assertThat(frame.payload.readableBytes()).isEqualTo(ChunkRange.WRITE_HEAD + LENGTH);
    frame.release();
    assertThat(chunk.bytes(0, LENGTH)).containsOnly(0);
    assertThat(channel.finish()).isFalse();
  }

  @Test
  void ordinaryReadsTakeAHeadThenTheRestOfAGatheredFrameButNeverAStreamedWritesData() {
    int head = 4096;
    Chunk chunk = new Chunk();
    ServerFrameDecoder decoder = new ServerFrameDecoder(64, "test");
    EmbeddedChannel channel = channel(decoder, chunk);
    byte[] data = data();
    assertThat(decoder.ordinaryReadSize(head)).as("between frames").isEqualTo(head);

    // A WRITE's header without its whole head: the head decides where the data goes.
    ByteBuf stream = write(1, 0, data);
    channel.writeInbound(stream.readRetainedSlice(Frame.HEADER_SIZE + 4));
    assertThat(decoder.ordinaryReadSize(head)).isEqualTo(head);
    channel.writeInbound(stream.readRetainedSlice(ChunkRange.WRITE_HEAD - 4 + 10));
    assertThat(decoder.chunkReadBuffer().writableBytes()).isEqualTo(LENGTH - 10);
    feed(channel, stream, 4000);
    ServerFrameDecoder.StreamedWrite streamed = channel.readInbound();
    assertThat(streamed.refusal()).isNull();
    assertThat(decoder.ordinaryReadSize(head)).as("after the WRITE").isEqualTo(head);

    // A WRITE gathered whole (not the peer's chunk): the rest of it in one read.
    chunk.owned = false;
    stream = write(2, 0, data);
    int first = Frame.HEADER_SIZE + ChunkRange.WRITE_HEAD + 100;
    channel.writeInbound(stream.readRetainedSlice(first));
    assertThat(decoder.chunkReadBuffer()).isNull();
    assertThat(decoder.ordinaryReadSize(head))
        .isEqualTo(Frame.HEADER_SIZE + ChunkRange.WRITE_HEAD + LENGTH - first);
    assertThat(decoder.ordinaryReadSize(1 << 20)).as("never less than a head").isEqualTo(1 << 20);
    feed(channel, stream, 4000);
    InboundFrame gathered = channel.readInbound();
    assertThat(gathered.payload.readableBytes()).isEqualTo(ChunkRange.WRITE_HEAD + LENGTH);
    gathered.release();

    // A streamed WRITE whose chunk was lost midway: the rest of its data, to be dropped.
    chunk.owned = true;
    stream = write(3, 0, data);
    channel.writeInbound(stream.readRetainedSlice(first));
    chunk.owned = false;
    assertThat(decoder.chunkReadBuffer()).isNull();
    assertThat(decoder.ordinaryReadSize(head)).isEqualTo(LENGTH - 100);
    feed(channel, stream, 4000);
    ServerFrameDecoder.StreamedWrite dropped = channel.readInbound();
    assertThat(dropped.refusal().code()).isEqualTo(ErrorCode.NO_SUCH_CHUNK);
    assertThat(channel.finish()).isFalse();
  }

  @Test
  void beforeAuthenticationWritesAreOrdinaryFrames() {
    EmbeddedChannel channel = new EmbeddedChannel(new ServerFrameDecoder(LENGTH + 64, "test"));
    feed(channel, write(1, 0, data()), 512);

    InboundFrame frame = channel.readInbound();
    assertThat(frame.opcode).isEqualTo(Opcode.WRITE);
    assertThat(frame.payload.readableBytes()).isEqualTo(ChunkRange.WRITE_HEAD + LENGTH);
    frame.release();
    assertThat(channel.finish()).isFalse();
  }
}
