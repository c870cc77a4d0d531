package org.spongefiles.daemon.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.WireException;

/**
 * Splits the byte stream into frames (layout in {@link Frame}). The header is checked as soon as
 * its 20 bytes arrive, so a bad magic, version, opcode or an oversized length is refused before any
 * payload is buffered; the {@link WireException} reaches the handler, which answers ERROR and
 * closes the connection.
 *
 * <pre>
 *  before:  | magic | ver | op | flags | request id | length | payload ...| next frame ...
 *  after:   InboundFrame(op, flags, request id, payload slice of exactly length bytes)
 * </pre>
 */
public class FrameDecoder extends ByteToMessageDecoder {
  private volatile int maxPayload;
  private final String peer;
  private boolean failed;

  public FrameDecoder(int maxPayload, String peer) {
    this.maxPayload = maxPayload;
    this.peer = peer;
    setCumulator(COMPOSITE_CUMULATOR);
  }

  /**
   * Changes the largest payload accepted from the next frame on: a server keeps it small until the
   * peer has authenticated, then raises it to a chunk's worth.
   */
  public void setMaxPayload(int maxPayload) {
    this.maxPayload = maxPayload;
  }

  /** The peer this decoder reads from, for error messages. */
  protected final String peer() {
    return peer;
  }

  /** True once a bad header was seen: the connection is closing and nothing more is decoded. */
  protected final boolean failed() {
    return failed;
  }

  @Override
  protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out)
      throws WireException {
    if (failed) {
      in.skipBytes(in.readableBytes()); // the connection is closing; nothing more is read
      return;
    }
    if (continueFrame(in, out) || in.readableBytes() < Frame.HEADER_SIZE) {
      return;
    }
    int length;
    try {
      length =
          Frame.checkHeader(in.nioBuffer(in.readerIndex(), Frame.HEADER_SIZE), maxPayload, peer);
    } catch (WireException e) {
      failed = true;
      in.skipBytes(in.readableBytes());
      throw e;
    }
    Opcode opcode = Opcode.fromCode(in.getByte(in.readerIndex() + 5));
    int flags = in.getShort(in.readerIndex() + 6);
    long requestId = in.getLong(in.readerIndex() + 8);
    if (startFrame(opcode, flags, requestId, length, in, out)
        || in.readableBytes() < Frame.HEADER_SIZE + length) {
      return;
    }
    in.skipBytes(Frame.HEADER_SIZE);
    out.add(new InboundFrame(opcode, flags, requestId, in.readRetainedSlice(length)));
  }

  /**
   * Called before a frame's header is read: true when a subclass consumes {@code in} itself (the
   * rest of a frame it took over). By default false.
   */
  protected boolean continueFrame(ByteBuf in, List<Object> out) {
    return false;
  }

  /**
   * Called once a frame's header (at {@code in}'s reader index) is checked, before its payload is
   * gathered: true when a subclass takes the frame over or waits for more bytes of it. By default
   * false: the payload is gathered whole into an {@link InboundFrame}.
   */
  protected boolean startFrame(
      Opcode opcode, int flags, long requestId, int length, ByteBuf in, List<Object> out)
      throws WireException {
    return false;
  }
}
