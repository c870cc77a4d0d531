package org.spongefiles.core.wire;

/** Typed reasons carried by {@link Opcode#ERROR} frames. */
public enum ErrorCode {
  MALFORMED_FRAME(1, true),
  UNSUPPORTED_VERSION(2, true),
  NOT_AUTHENTICATED(3, true),
  AUTH_FAILED(4, true),
  POOL_FULL(5, false),
  QUOTA_EXCEEDED(6, false),
  NO_SUCH_CHUNK(7, false),
  FRAME_TOO_LARGE(8, true),
  OUT_OF_ORDER(9, true),
  SHUTTING_DOWN(10, true),
  INTERNAL(11, false),
  /** A connection failed (never sent on the wire; reported by the client side). */
  CONNECTION(12, true),
  /** This tracker is not the leader; the message is the leader's host:port, or empty. */
  NOT_LEADER(13, false);

  private static final ErrorCode[] BY_CODE = new ErrorCode[64];

  static {
    for (ErrorCode code : values()) {
      BY_CODE[code.code] = code;
    }
  }

  private final short code;
  private final boolean closesConnection;

  ErrorCode(int code, boolean closesConnection) {
    this.code = (short) code;
    this.closesConnection = closesConnection;
  }

  public short code() {
    return code;
  }

  /** Whether the connection is unusable after this error. */
  public boolean closesConnection() {
    return closesConnection;
  }

  /** A refusal for lack of room: the client should try another server, not give up. */
  public boolean isRefusal() {
    return this == POOL_FULL || this == QUOTA_EXCEEDED;
  }

  public static ErrorCode fromCode(short code) {
    return code > 0 && code < BY_CODE.length && BY_CODE[code] != null ? BY_CODE[code] : INTERNAL;
  }
}
