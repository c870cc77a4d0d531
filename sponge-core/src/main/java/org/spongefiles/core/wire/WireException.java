package org.spongefiles.core.wire;

import java.io.IOException;

/** A protocol fault or a typed refusal, naming the peer. */
public class WireException extends IOException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;
  private final String peer;

  public WireException(ErrorCode code, String peer, String message) {
    super(code + " from/to " + peer + ": " + message);
    this.code = code;
    this.peer = peer;
  }

  public WireException(ErrorCode code, String peer, String message, Throwable cause) {
    this(code, peer, message);
    initCause(cause);
  }

  public ErrorCode code() {
    return code;
  }

  public String peer() {
    return peer;
  }

  /** The bare reason, as sent in an ERROR frame. */
  public String reason() {
    String prefix = code + " from/to " + peer + ": ";
    String message = getMessage();
    return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
  }
}
