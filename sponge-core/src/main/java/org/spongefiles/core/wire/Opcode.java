package org.spongefiles.core.wire;

/** What a frame asks or answers. Requests come from clients; responses echo the request id. */
public enum Opcode {
  /** Server to client on connect: nonce, whether a secret is required, chunk size, node. */
  CHALLENGE(1),
  /** Client identity (node, pid, task) and, with a cluster secret, its HMAC proof. */
  HELLO(2),
  /** The server accepted the client; carries the server's proof when a secret is used. */
  HELLO_OK(3),
  /** Allocate up to n chunks for the client's task. */
  ALLOCATE(10),
  /** The chunks allocated: (index, generation) pairs. */
  ALLOCATED(11),
  /** Write bytes into an allocated chunk at an offset. */
  WRITE(12),
  /** The write is in the pool. */
  WRITTEN(13),
  /** Read a range of an allocated chunk. */
  READ(14),
  /** The bytes read. */
  DATA(15),
  /** Free chunks of the client's task. */
  FREE(16),
  /** How many were freed. */
  FREED(17),
  /** Ask for the server's pool occupancy. */
  STATS(18),
  /** Pool occupancy and counters. */
  STATS_REPLY(19),
  /** Ask whether processes (pid, start time) of the server's node are alive. */
  LIVENESS(20),
  /** One flag per process asked about. */
  LIVENESS_REPLY(21),
  /** Ask the memory tracker for the servers with free memory in a rack. */
  FREE_LIST(22),
  /** The rack's servers with room, in the order to try them, and the age of that view. */
  FREE_LIST_REPLY(23),
  /**
   * A sponge server's free space ({@link FreeReport}), sent unasked to the leading tracker when it
   * changed past a threshold and as a slow keepalive; never answered.
   */
  REPORT(24),
  /**
   * The leader's list of one rack's servers ({@link FreeList}, unordered), pushed unasked to that
   * rack's servers when it changed and as a keepalive; they answer their tasks' FREE_LIST from it.
   */
  RACK_LIST(25),
  /**
   * One rack's list ({@link RelayedList}) from the leader to two of the rack's servers, the relays,
   * which take it and forward it to the rack's other servers on their data ports: the leader writes
   * to two servers per rack change instead of to every server of the rack. Never answered.
   */
  RACK_RELAY(26),
  /**
   * A relay's batch of its rack's reports ({@link FreeReports}) to the leading tracker, at most
   * once per report interval: the rack's servers send their REPORTs to the relay's data port
   * instead of to the leader, which reads one frame per rack and interval instead of one per
   * change. Never answered.
   */
  REPORTS(27),
  /** A typed refusal or failure: error code and a sentence. */
  ERROR(127);

  private static final Opcode[] BY_CODE = new Opcode[128];

  static {
    for (Opcode opcode : values()) {
      BY_CODE[opcode.code] = opcode;
    }
  }

  private final byte code;

  Opcode(int code) {
    this.code = (byte) code;
  }

  public byte code() {
    return code;
  }

  /** The opcode of {@code code}, or null when unknown. */
  public static Opcode fromCode(byte code) {
    return code < 0 ? null : BY_CODE[code];
  }
}
