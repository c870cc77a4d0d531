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
public final class FrameDecoder extends ByteToMessageDecoder {
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

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out)
      throws WireException {
    if (failed) {
      in.skipBytes(in.readableBytes()); // the connection is closing; nothing more is read
      return;
    }
    if (in.readableBytes() < Frame.HEADER_SIZE) {
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
    if (in.readableBytes() < Frame.HEADER_SIZE + length) {
      return;
    }
    Opcode opcode = Opcode.fromCode(in.getByte(in.readerIndex() + 5));
    int flags = in.getShort(in.readerIndex() + 6);
    long requestId = in.getLong(in.readerIndex() + 8);
    in.skipBytes(Frame.HEADER_SIZE);
    out.add(new InboundFrame(opcode, flags, requestId, in.readRetainedSlice(length)));
  }
}
