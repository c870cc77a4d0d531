package org.spongefiles.daemon.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import java.nio.ByteBuffer;
import org.spongefiles.core.wire.ErrorBody;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.Opcode;

/** Builds frames to send: a header buffer followed by the payload, without copying it. */
public final class Responses {
  private Responses() {}

  public static ByteBuf frame(
      ChannelHandlerContext ctx, Opcode opcode, int flags, long requestId, ByteBuf payload) {
    return frame(ctx.alloc(), opcode, flags, requestId, payload);
  }

  /** A frame built with {@code alloc}: a request when {@code flags} is 0. */
  public static ByteBuf frame(
      ByteBufAllocator alloc, Opcode opcode, int flags, long requestId, ByteBuf payload) {
    ByteBuf header = alloc.buffer(Frame.HEADER_SIZE);
    header.writeInt(Frame.MAGIC);
    header.writeByte(Frame.VERSION);
    header.writeByte(opcode.code());
    header.writeShort(flags);
    header.writeLong(requestId);
    header.writeInt(payload.readableBytes());
    return Unpooled.wrappedUnmodifiableBuffer(header, payload);
  }

  public static ByteBuf response(
      ChannelHandlerContext ctx, Opcode opcode, long requestId, ByteBuffer body) {
    return frame(ctx, opcode, Frame.FLAG_RESPONSE, requestId, Unpooled.wrappedBuffer(body));
  }

  public static ByteBuf error(
      ChannelHandlerContext ctx, long requestId, ErrorCode code, String message) {
    return frame(
        ctx,
        Opcode.ERROR,
        Frame.FLAG_RESPONSE,
        requestId,
        Unpooled.wrappedBuffer(ErrorBody.encode(code, message)));
  }
}
