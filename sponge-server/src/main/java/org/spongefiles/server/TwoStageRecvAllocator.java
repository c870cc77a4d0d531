package org.spongefiles.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelConfig;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * Read buffers of one connection: small ones until the peer has authenticated; then the pool chunk
 * itself while a WRITE's data arrives, and otherwise a buffer sized by the frame decoder ({@link
 * ServerFrameDecoder#ordinaryReadSize}): the rest of a frame being gathered, or the trusted
 * allocator's size for the head of the next frame. So a read never takes more of a WRITE's data
 * into an ordinary buffer than the few bytes after its head, which would have to be copied into the
 * chunk afterwards. A channel keeps the handle it made at its first read, so replacing the
 * channel's allocator after HELLO would change nothing; this one switches at the next read.
 *
 * <p>Over TLS the socket's bytes are ciphertext, which must not land in a chunk: reads then go into
 * ordinary buffers sized the same way, and the decoder copies the decrypted data into the chunk.
 */
final class TwoStageRecvAllocator implements RecvByteBufAllocator {
  private final RecvByteBufAllocator stranger;
  private final RecvByteBufAllocator trusted;
  private final boolean intoChunks;
  private volatile boolean authenticated;
  private volatile ServerFrameDecoder chunkReads;

  /**
   * @param intoChunks whether a WRITE's data may be read from the socket into its chunk (false over
   *     TLS)
   */
  TwoStageRecvAllocator(
      RecvByteBufAllocator stranger, RecvByteBufAllocator trusted, boolean intoChunks) {
    this.stranger = stranger;
    this.trusted = trusted;
    this.intoChunks = intoChunks;
  }

  /**
   * From the next read on, buffers come from the trusted allocator, or are the chunk a WRITE's data
   * goes into when {@code frames} has one ({@link ServerFrameDecoder#chunkReadBuffer}).
   */
  void authenticated(ServerFrameDecoder frames) {
    chunkReads = frames;
    authenticated = true;
  }

  @Override
  public Handle newHandle() {
    return new TwoStage(
        (ExtendedHandle) stranger.newHandle(), (ExtendedHandle) trusted.newHandle());
  }

  private final class TwoStage implements ExtendedHandle {
    private final ExtendedHandle small;
    private final ExtendedHandle large;
    private ExtendedHandle current;

    TwoStage(ExtendedHandle small, ExtendedHandle large) {
      this.small = small;
      this.large = large;
      this.current = small;
    }

    @Override
    public void reset(ChannelConfig config) {
      current = authenticated ? large : small;
      current.reset(config);
    }

    @Override
    public ByteBuf allocate(ByteBufAllocator alloc) {
      if (current != large) {
        return small.allocate(alloc);
      }
      ByteBuf chunk = intoChunks ? chunkReads.chunkReadBuffer() : null;
      return chunk != null ? chunk : alloc.ioBuffer(chunkReads.ordinaryReadSize(large.guess()));
    }

    @Override
    public int guess() {
      return current.guess();
    }

    @Override
    public void incMessagesRead(int numMessages) {
      current.incMessagesRead(numMessages);
    }

    @Override
    public void lastBytesRead(int bytes) {
      current.lastBytesRead(bytes);
    }

    @Override
    public int lastBytesRead() {
      return current.lastBytesRead();
    }

    @Override
    public void attemptedBytesRead(int bytes) {
      current.attemptedBytesRead(bytes);
    }

    @Override
    public int attemptedBytesRead() {
      return current.attemptedBytesRead();
    }

    @Override
    public boolean continueReading() {
      return current.continueReading();
    }

    @Override
    public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
      return current.continueReading(maybeMoreDataSupplier);
    }

    @Override
    public void readComplete() {
      current.readComplete();
    }
  }
}
