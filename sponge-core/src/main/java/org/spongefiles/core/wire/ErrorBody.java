package org.spongefiles.core.wire;

import java.nio.ByteBuffer;

/** ERROR body: {@code u16 code, string message}. */
public final class ErrorBody {
  private ErrorBody() {}

  public static ByteBuffer encode(ErrorCode code, String message) {
    String bounded = message.length() > 2000 ? message.substring(0, 2000) : message;
    ByteBuffer out = ByteBuffer.allocate(2 + Codec.stringSize(bounded));
    out.putShort(code.code());
    Codec.putString(out, bounded);
    return out.flip();
  }

  /** The exception an ERROR frame from {@code peer} stands for. */
  public static WireException decode(ByteBuffer in, String peer) {
    try {
      ErrorCode code = ErrorCode.fromCode(Codec.getShort(in, peer, "code"));
      String message = Codec.getString(in, peer, "message");
      return new WireException(code, peer, message);
    } catch (WireException e) {
      return e;
    }
  }
}
