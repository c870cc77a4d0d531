package org.spongefiles.core.wire;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * FREE_LIST body {@code string rack}; FREE_LIST_REPLY body:
 *
 * <pre>
 * i64 ageMillis   how old the list is: 0 from the leader and from a server linked to it, else
 *                 the time since the server's link went down (pushed lists carry 0)
 * string rack
 * i32 n, n x (string endpoint, i32 freeChunks, i32 chunks, i32 chunkSize), in the order to try
 * </pre>
 */
public final class FreeList {
  public final long ageMillis;
  public final String rack;
  public final List<Entry> servers;

  public FreeList(long ageMillis, String rack, List<Entry> servers) {
    this.ageMillis = ageMillis;
    this.rack = rack;
    this.servers = List.copyOf(servers);
  }

  /** One server with room. */
  public static final class Entry {
    public final String endpoint;
    public final int freeChunks;
    public final int chunks;
    public final int chunkSize;

    public Entry(String endpoint, int freeChunks, int chunks, int chunkSize) {
      this.endpoint = endpoint;
      this.freeChunks = freeChunks;
      this.chunks = chunks;
      this.chunkSize = chunkSize;
    }

    @Override
    public String toString() {
      return endpoint + " (" + freeChunks + "/" + chunks + " free)";
    }
  }

  public static ByteBuffer encodeRequest(String rack) {
    ByteBuffer out = ByteBuffer.allocate(Codec.stringSize(rack));
    Codec.putString(out, rack);
    return out.flip();
  }

  public static String decodeRequest(ByteBuffer in, String peer) throws WireException {
    String rack = Codec.getString(in, peer, "rack");
    Codec.requireEnd(in, peer, "FREE_LIST");
    return rack;
  }

  public ByteBuffer encode() {
    int size = 8 + Codec.stringSize(rack) + 4;
    for (Entry entry : servers) {
      size += Codec.stringSize(entry.endpoint) + 12;
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    out.putLong(ageMillis);
    Codec.putString(out, rack);
    out.putInt(servers.size());
    for (Entry entry : servers) {
      Codec.putString(out, entry.endpoint);
      out.putInt(entry.freeChunks);
      out.putInt(entry.chunks);
      out.putInt(entry.chunkSize);
    }
    return out.flip();
  }

  public static FreeList decode(ByteBuffer in, String peer) throws WireException {
    long age = Codec.getLong(in, peer, "ageMillis");
    String rack = Codec.getString(in, peer, "rack");
    int count = Codec.getCount(in, 14, peer, "server");
    List<Entry> entries = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String endpoint = Codec.getString(in, peer, "endpoint");
      entries.add(
          new Entry(
              endpoint,
              Codec.getInt(in, peer, "freeChunks"),
              Codec.getInt(in, peer, "chunks"),
              Codec.getInt(in, peer, "chunkSize")));
    }
    Codec.requireEnd(in, peer, "FREE_LIST_REPLY");
    return new FreeList(age, rack, entries);
  }

  @Override
  public String toString() {
    return "rack " + rack + " (" + ageMillis + " ms old): " + servers;
  }
}
