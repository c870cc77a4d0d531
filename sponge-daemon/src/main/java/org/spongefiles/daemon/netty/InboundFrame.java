package org.spongefiles.daemon.netty;

import io.netty.buffer.ByteBuf;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.ReferenceCounted;
import org.spongefiles.core.wire.Opcode;

/** A decoded request: header fields and the payload, which this frame owns and releases. */
public final class InboundFrame extends AbstractReferenceCounted {
  public final Opcode opcode;
  public final int flags;
  public final long requestId;
  public final ByteBuf payload;

  public InboundFrame(Opcode opcode, int flags, long requestId, ByteBuf payload) {
    this.opcode = opcode;
    this.flags = flags;
    this.requestId = requestId;
    this.payload = payload;
  }

  @Override
  protected void deallocate() {
    payload.release();
  }

  @Override
  public ReferenceCounted touch(Object hint) {
    payload.touch(hint);
    return this;
  }

  @Override
  public String toString() {
    return opcode + " #" + requestId + " (" + payload.readableBytes() + " bytes)";
  }
}
