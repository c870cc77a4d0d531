package org.spongefiles.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelConfig;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * Read buffers of one connection: small ones until the peer has authenticated, then those of the
 * allocator for chunk traffic, or the pool chunk itself while a WRITE's data arrives. A channel
 * keeps the handle it made at its first read, so replacing the channel's allocator after HELLO
 * would change nothing; this one switches at the next read.
 */
final class TwoStageRecvAllocator implements RecvByteBufAllocator {
  private final RecvByteBufAllocator stranger;
  private final RecvByteBufAllocator trusted;
  private volatile boolean authenticated;
  private volatile ServerFrameDecoder chunkReads;

  TwoStageRecvAllocator(RecvByteBufAllocator stranger, RecvByteBufAllocator trusted) {
    this.stranger = stranger;
    this.trusted = trusted;
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
      ByteBuf chunk = current == large ? chunkReads.chunkReadBuffer() : null;
      return chunk != null ? chunk : current.allocate(alloc);
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
