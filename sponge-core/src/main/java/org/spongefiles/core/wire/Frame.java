package org.spongefiles.core.wire;

import java.nio.ByteBuffer;

/**
 * One message of the sponge wire protocol, version {@value #VERSION}. Every message, in both
 * directions, is a frame: a fixed 20-byte header in network byte order followed by the payload.
 *
 * <pre>
 *  offset  size  field
 *  ------  ----  -----------------------------------------------------------------
 *       0     4  magic        0x53504E47 ("SPNG")
 *       4     1  version      3 (2 named clients by pid and start time, 1 had no session
 *                            tickets; both are refused)
 *       5     1  opcode       see {@link Opcode}
 *       6     2  flags        bit 0: this frame is a response; other bits must be 0
 *       8     8  request id   chosen by the requester, echoed in the response
 *      16     4  length       payload bytes that follow, 0 to the receiver's maximum
 *      20     n  payload      the opcode's body (see {@link Messages})
 * </pre>
 *
 * <p>A connection starts with the server's unsolicited {@link Opcode#CHALLENGE} (request id 0). The
 * client answers {@link Opcode#HELLO}, proving the cluster secret when one is configured; the
 * server answers {@link Opcode#HELLO_OK}, carrying the session ticket (see {@link HelloOk}), or an
 * {@link Opcode#ERROR} and closes. Then the client sends requests, each answered by its response or
 * an ERROR, in the order sent; a client may send a request before the answer to the previous one (a
 * task sends an ALLOCATE ahead of the WRITE that takes its last reserved chunk). A frame with a bad
 * magic, an unknown version or opcode, a length over the maximum, or a request out of order is
 * answered with an ERROR naming the problem and the connection is closed.
 */
public final class Frame {
  public static final int MAGIC = 0x53504E47;

  /** The first two bytes of a TLS handshake record (content type 22, version 3.x). */
  private static final int TLS_HANDSHAKE_RECORD = 0x1603;

  public static final byte VERSION = 3;
  public static final int HEADER_SIZE = 20;
  public static final int FLAG_RESPONSE = 1;

  /**
   * Largest payload a server accepts before the peer has authenticated: a HELLO fits, a chunk write
   * does not, so a stranger cannot make the server buffer more than this per connection.
   */
  public static final int MAX_UNAUTHENTICATED_PAYLOAD = 4 << 10;

  /** Largest payload besides chunk data: HELLO and lists of handles stay far below it. */
  public static final int MAX_CONTROL_PAYLOAD = 64 << 10;

  private final Opcode opcode;
  private final int flags;
  private final long requestId;
  private final ByteBuffer payload;

  public Frame(Opcode opcode, int flags, long requestId, ByteBuffer payload) {
    this.opcode = opcode;
    this.flags = flags;
    this.requestId = requestId;
    this.payload = payload;
  }

  public Opcode opcode() {
    return opcode;
  }

  public boolean isResponse() {
    return (flags & FLAG_RESPONSE) != 0;
  }

  public int flags() {
    return flags;
  }

  public long requestId() {
    return requestId;
  }

  /** The payload, position 0 to its length. */
  public ByteBuffer payload() {
    return payload;
  }

  /** Writes a header into {@code header} at its position. */
  public static void putHeader(
      ByteBuffer header, Opcode opcode, int flags, long requestId, int payloadLength) {
    header.putInt(MAGIC);
    header.put(VERSION);
    header.put(opcode.code());
    header.putShort((short) flags);
    header.putLong(requestId);
    header.putInt(payloadLength);
  }

  /**
   * Checks a header (at {@code header}'s position, 20 bytes) and returns its payload length.
   *
   * @throws WireException naming the problem when the header is not acceptable
   */
  public static int checkHeader(ByteBuffer header, int maxPayload, String peer)
      throws WireException {
    int at = header.position();
    int magic = header.getInt(at);
    if (magic != MAGIC) {
      throw new WireException(
          ErrorCode.MALFORMED_FRAME,
          peer,
          String.format("bad magic 0x%08x (expected 0x%08x)", magic, MAGIC)
              + ((magic >>> 16) == TLS_HANDSHAKE_RECORD
                  ? ": a TLS handshake, from a peer with sponge.tls.enabled=true"
                  : ""));
    }
    byte version = header.get(at + 4);
    if (version != VERSION) {
      throw new WireException(
          ErrorCode.UNSUPPORTED_VERSION,
          peer,
          "protocol version " + version + " is not supported (this side speaks " + VERSION + ")");
    }
    if (Opcode.fromCode(header.get(at + 5)) == null) {
      throw new WireException(
          ErrorCode.MALFORMED_FRAME, peer, "unknown opcode " + header.get(at + 5));
    }
    int flags = header.getShort(at + 6);
    if ((flags & ~FLAG_RESPONSE) != 0) {
      throw new WireException(ErrorCode.MALFORMED_FRAME, peer, "unknown flags " + flags);
    }
    int length = header.getInt(at + 16);
    if (length < 0 || length > maxPayload) {
      throw new WireException(
          ErrorCode.FRAME_TOO_LARGE,
          peer,
          "payload of " + length + " bytes (expected: 0 to " + maxPayload + ")");
    }
    return length;
  }

  @Override
  public String toString() {
    return opcode
        + (isResponse() ? " response" : "")
        + " #"
        + requestId
        + " ("
        + payload.remaining()
        + " bytes)";
  }
}
