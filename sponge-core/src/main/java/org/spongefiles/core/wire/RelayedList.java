package org.spongefiles.core.wire;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * RACK_RELAY body, one rack's list as the leading tracker hands it to the rack's relays and they
 * forward it to the rack's other servers:
 *
 * <pre>
 * string leader     the leading tracker that made the list (host:port, as in the election)
 * i64 sequence      increasing within the leader's term: a server keeps the highest it got
 * i32 n, n x string relay   the servers the leader sent it to (they forward it; nobody forwards
 *                           to them)
 * FREE_LIST_REPLY body      the rack's list (age 0, unordered)
 * </pre>
 */
public final class RelayedList {
  public final String leader;
  public final long sequence;
  public final List<String> relays;
  public final FreeList list;

  public RelayedList(String leader, long sequence, List<String> relays, FreeList list) {
    this.leader = leader;
    this.sequence = sequence;
    this.relays = List.copyOf(relays);
    this.list = list;
  }

  public ByteBuffer encode() {
    ByteBuffer rackList = list.encode();
    int size = Codec.stringSize(leader) + 8 + 4 + rackList.remaining();
    for (String relay : relays) {
      size += Codec.stringSize(relay);
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    Codec.putString(out, leader);
    out.putLong(sequence);
    out.putInt(relays.size());
    for (String relay : relays) {
      Codec.putString(out, relay);
    }
    out.put(rackList);
    return out.flip();
  }

  /**
   * @throws WireException MALFORMED_FRAME naming the peer and field when the body is truncated or
   *     too long
   */
  public static RelayedList decode(ByteBuffer in, String peer) throws WireException {
    String leader = Codec.getString(in, peer, "leader");
    long sequence = Codec.getLong(in, peer, "sequence");
    int count = Codec.getCount(in, 2, peer, "relay");
    List<String> relays = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      relays.add(Codec.getString(in, peer, "relay"));
    }
    return new RelayedList(leader, sequence, relays, FreeList.decode(in, peer));
  }

  /** Whether {@code endpoint} is listed in the rack's list. */
  public boolean lists(String endpoint) {
    for (FreeList.Entry entry : list.servers) {
      if (entry.endpoint.equals(endpoint)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return "rack " + list.rack + " from " + leader + " #" + sequence + " via " + relays;
  }
}
