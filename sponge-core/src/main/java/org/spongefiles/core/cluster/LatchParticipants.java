package org.spongefiles.core.cluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The participants of the trackers' Curator leader latch as ZooKeeper holds them: one ephemeral
 * sequential node per tracker, its data the tracker's endpoint. The one with the lowest sequence
 * number leads, as Curator's {@code LeaderLatch} decides.
 */
public final class LatchParticipants {
  private static final String SEQUENCE_MARK = "latch-";

  private LatchParticipants() {}

  /** One participant's node. */
  public static final class Participant {
    /** The node's path. */
    public final String path;

    /** The tracker's endpoint, as it joined the election. */
    public final String id;

    /** The node's data version, so that a removal never takes a node that changed. */
    final int version;

    Participant(String path, String id, int version) {
      this.path = path;
      this.id = id;
      this.version = version;
    }

    @Override
    public String toString() {
      return id + " (" + path + ")";
    }
  }

  /**
   * The participants of the latch at {@code latchPath}, the leader first; empty when the latch does
   * not exist yet. Participants that leave while this reads are skipped.
   */
  public static List<Participant> read(CuratorFramework zookeeper, String latchPath)
      throws Exception {
    List<String> children;
    try {
      children = new ArrayList<>(zookeeper.getChildren().forPath(latchPath));
    } catch (KeeperException.NoNodeException e) {
      return List.of();
    }
    children.sort(Comparator.comparing(LatchParticipants::sequence));
    List<Participant> participants = new ArrayList<>();
    for (String child : children) {
      String path = latchPath + "/" + child;
      Stat stat = new Stat();
      try {
        byte[] data = zookeeper.getData().storingStatIn(stat).forPath(path);
        participants.add(
            new Participant(path, new String(data, StandardCharsets.UTF_8), stat.getVersion()));
      } catch (KeeperException.NoNodeException gone) {
        // left while we read
      }
    }
    return participants;
  }

  /** The leader's endpoint, or null when no tracker takes part. */
  public static String leader(CuratorFramework zookeeper, String latchPath) throws Exception {
    List<Participant> participants = read(zookeeper, latchPath);
    return participants.isEmpty() ? null : participants.get(0).id;
  }

  /**
   * Removes {@code participant}'s node, unless it is already gone or changed since it was read.
   *
   * @return whether this call removed it
   */
  public static boolean remove(CuratorFramework zookeeper, Participant participant)
      throws Exception {
    try {
      zookeeper.delete().withVersion(participant.version).forPath(participant.path);
      return true;
    } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
      return false;
    }
  }

  private static String sequence(String node) {
    int at = node.lastIndexOf(SEQUENCE_MARK);
    return at < 0 ? node : node.substring(at + SEQUENCE_MARK.length());
  }
}
