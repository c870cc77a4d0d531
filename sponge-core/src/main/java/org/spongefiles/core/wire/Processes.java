package org.spongefiles.core.wire;

import java.nio.ByteBuffer;

/**
 * LIVENESS body {@code i32 n, n x (i32 pid, i64 startMillis)} and LIVENESS_REPLY body {@code i32 n,
 * n x u8 alive}.
 */
public final class Processes {
  private Processes() {}

  public static ByteBuffer encodeQuery(int[] pids, long[] starts) {
    ByteBuffer out = ByteBuffer.allocate(4 + 12 * pids.length);
    out.putInt(pids.length);
    for (int i = 0; i < pids.length; i++) {
      out.putInt(pids[i]);
      out.putLong(starts[i]);
    }
    return out.flip();
  }

  /** Decodes a query into {@code [pids, starts]} as parallel arrays wrapped in an Object[]. */
  public static Query decodeQuery(ByteBuffer in, String peer) throws WireException {
    int count = Codec.getCount(in, 12, peer, "process");
    int[] pids = new int[count];
    long[] starts = new long[count];
    for (int i = 0; i < count; i++) {
      pids[i] = in.getInt();
      starts[i] = in.getLong();
    }
    Codec.requireEnd(in, peer, "LIVENESS");
    return new Query(pids, starts);
  }

  public static ByteBuffer encodeReply(boolean[] alive) {
    ByteBuffer out = ByteBuffer.allocate(4 + alive.length);
    out.putInt(alive.length);
    for (boolean a : alive) {
      out.put((byte) (a ? 1 : 0));
    }
    return out.flip();
  }

  public static boolean[] decodeReply(ByteBuffer in, String peer) throws WireException {
    int count = Codec.getCount(in, 1, peer, "liveness flag");
    boolean[] alive = new boolean[count];
    for (int i = 0; i < count; i++) {
      alive[i] = in.get() != 0;
    }
    Codec.requireEnd(in, peer, "LIVENESS_REPLY");
    return alive;
  }

  /** The processes asked about. */
  public static final class Query {
    public final int[] pids;
    public final long[] starts;

    Query(int[] pids, long[] starts) {
      this.pids = pids;
      this.starts = starts;
    }
  }
}
