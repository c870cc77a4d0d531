package org.spongefiles.core.wire;

import java.nio.ByteBuffer;

/**
 * LIVENESS body {@code i32 n, n x i64 lease} (lease ids of processes on the answering server's
 * node) and LIVENESS_REPLY body {@code i32 n, n x u8 alive}.
 */
public final class Processes {
  private Processes() {}

  public static ByteBuffer encodeQuery(long[] leases) {
    ByteBuffer out = ByteBuffer.allocate(4 + 8 * leases.length);
    out.putInt(leases.length);
    for (long lease : leases) {
      out.putLong(lease);
    }
    return out.flip();
  }

  /** Decodes a query: the lease ids asked about. */
  public static long[] decodeQuery(ByteBuffer in, String peer) throws WireException {
    int count = Codec.getCount(in, 8, peer, "lease");
    long[] leases = new long[count];
    for (int i = 0; i < count; i++) {
      leases[i] = in.getLong();
    }
    Codec.requireEnd(in, peer, "LIVENESS");
    return leases;
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
}
