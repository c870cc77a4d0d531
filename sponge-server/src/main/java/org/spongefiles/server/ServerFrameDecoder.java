package org.spongefiles.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import java.nio.ByteBuffer;
import java.util.List;
import org.spongefiles.core.wire.ChunkRange;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.daemon.netty.FrameDecoder;

/**
 * The sponge server's frame decoder: {@link FrameDecoder}'s framing and limits, except that the
 * data of an authenticated peer's WRITE goes straight into the pool chunk it names instead of being
 * gathered into a frame first.
 *
 * <pre>
 *  | header | WRITE head (chunk, offset) | data ........................ | next frame
 *                                        ^ bytes already read: copied into the chunk
 *                                          later reads: into the chunk itself ({@link #chunkReadBuffer})
 *  after:   StreamedWrite(request id, range[, refusal])
 * </pre>
 *
 * <p>Once a WRITE's head has arrived and names a chunk the peer owns ({@link WriteTargets#open}),
 * the data bytes already received are copied into the chunk, and the connection's receive allocator
 * reads the rest of the data into the chunk, so the kernel copies it once, as for a raw socket.
 * Ownership is checked again before every copy and every read into the chunk: a chunk freed
 * meanwhile is never written; the rest of the data is dropped and the WRITE is refused. A WRITE
 * whose head names no chunk of the peer's is gathered whole and answered as any frame.
 */
final class ServerFrameDecoder extends FrameDecoder {
  /** Where the data of an authenticated peer's WRITE goes. */
  interface WriteTargets {
    /**
     * The pool bytes of {@code range} (position 0, limit the range's length) when the peer may
     * write them now, else null: the frame is then decoded whole and refused as any WRITE.
     */
    ByteBuffer open(ChunkRange range);

    /** Throws the refusal when the chunk of {@code range} is no longer the peer's. */
    void checkOwned(ChunkRange range) throws WireException;
  }

  /** A WRITE whose data was received into the pool; answered by the handler. */
  static final class StreamedWrite {
    final long requestId;
    final ChunkRange range;
    private final ByteBuffer target;
    private int received;
    private WireException refusal;

    StreamedWrite(long requestId, ChunkRange range, ByteBuffer target) {
      this.requestId = requestId;
      this.range = range;
      this.target = target;
    }

    /** Why the data was dropped, or null when it is all in the chunk. */
    WireException refusal() {
      return refusal;
    }

    private int remaining() {
      return range.length - received;
    }

    @Override
    public String toString() {
      return "WRITE #" + requestId + " (" + range.length + " bytes, streamed)";
    }
  }

  private WriteTargets targets;
  private StreamedWrite write;
  private ByteBuf handedOut;

  ServerFrameDecoder(int maxPayload, String peer) {
    super(maxPayload, peer);
  }

  /**
   * The peer has authenticated: frames up to {@code maxPayload} bytes from the next one on, and
   * WRITE data into {@code targets}.
   */
  void authenticated(int maxPayload, WriteTargets targets) {
    setMaxPayload(maxPayload);
    this.targets = targets;
  }

  /**
   * A buffer over the rest of the chunk the current WRITE fills, for the next read from the socket;
   * null when that read should go into an ordinary buffer. Called by the connection's receive
   * allocator on the event loop before each read.
   */
  ByteBuf chunkReadBuffer() {
    handedOut = null;
    if (failed() || write == null || write.refusal != null || write.remaining() == 0) {
      return null;
    }
    if (!stillOwned()) {
      return null;
    }
    ByteBuffer rest = write.target.duplicate();
    rest.position(write.received);
    handedOut = Unpooled.wrappedBuffer(rest.slice()).clear();
    return handedOut;
  }

  /**
   * How many bytes the next read into an ordinary buffer should take, when {@link #chunkReadBuffer}
   * gave none: the rest of the frame being gathered or of the data being dropped, else {@code
   * headRead}, enough for a request's head. A WRITE's data is then never read into an ordinary
   * buffer beyond those few bytes (to be copied into its chunk afterwards): once its head has
   * arrived the rest goes straight into the chunk.
   */
  int ordinaryReadSize(int headRead) {
    int rest;
    if (write != null) {
      rest = write.remaining();
    } else {
      ByteBuf pending = internalBuffer();
      int have = pending.readableBytes();
      if (failed() || have < Frame.HEADER_SIZE) {
        return headRead;
      }
      int at = pending.readerIndex();
      if (targets != null
          && pending.getByte(at + 5) == Opcode.WRITE.code()
          && have < Frame.HEADER_SIZE + ChunkRange.WRITE_HEAD) {
        return headRead; // its head decides whether the data goes into a chunk
      }
      rest = Frame.HEADER_SIZE + pending.getInt(at + 16) - have; // the header was checked
    }
    return Math.max(headRead, rest);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (msg == null || msg != handedOut) {
      super.channelRead(ctx, msg);
      return;
    }
    // Read straight into the chunk: count it, nothing to copy.
    handedOut = null;
    ByteBuf data = (ByteBuf) msg;
    write.received += data.readableBytes();
    data.release();
    if (write.remaining() == 0) {
      StreamedWrite done = write;
      write = null;
      ctx.fireChannelRead(done);
    }
  }

  @Override
  protected boolean continueFrame(ByteBuf in, List<Object> out) {
    if (write == null) {
      return false;
    }
    take(in, out);
    return true;
  }

  @Override
  protected boolean startFrame(
      Opcode opcode, int flags, long requestId, int length, ByteBuf in, List<Object> out)
      throws WireException {
    if (targets == null
        || opcode != Opcode.WRITE
        || (flags & Frame.FLAG_RESPONSE) != 0
        || length < ChunkRange.WRITE_HEAD) {
      return false;
    }
    if (in.readableBytes() < Frame.HEADER_SIZE + ChunkRange.WRITE_HEAD) {
      return true; // wait for the head
    }
    ChunkRange head =
        ChunkRange.decodeWrite(
            in.nioBuffer(in.readerIndex() + Frame.HEADER_SIZE, ChunkRange.WRITE_HEAD), peer());
    ChunkRange range = new ChunkRange(head.chunk, head.offset, length - ChunkRange.WRITE_HEAD);
    ByteBuffer target = targets.open(range);
    if (target == null) {
      return false; // gathered whole and refused as any WRITE
    }
    in.skipBytes(Frame.HEADER_SIZE + ChunkRange.WRITE_HEAD);
    write = new StreamedWrite(requestId, range, target);
    take(in, out);
    return true;
  }

  /** Moves the current WRITE's data already read into its chunk; emits it when complete. */
  private void take(ByteBuf in, List<Object> out) {
    int n = Math.min(in.readableBytes(), write.remaining());
    if (n > 0 && write.refusal == null && stillOwned()) {
      ByteBuffer dst = write.target.duplicate();
      dst.position(write.received).limit(write.received + n);
      in.getBytes(in.readerIndex(), dst);
    }
    in.skipBytes(n);
    write.received += n;
    if (write.remaining() == 0) {
      out.add(write);
      write = null;
    }
  }

  /** Checks the current WRITE's chunk is still the peer's; if not, its data is dropped. */
  private boolean stillOwned() {
    try {
      targets.checkOwned(write.range);
      return true;
    } catch (WireException e) {
      write.refusal = e;
      return false;
    }
  }
}
