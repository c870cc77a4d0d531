package org.spongefiles.tracker;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.cluster.LatchParticipants;
import org.spongefiles.core.remote.ServerAddress;

/**
 * A follower's check, once per leader check interval, that the tracker leading the election still
 * listens. A leader killed with its host still up keeps its latch node until its ZooKeeper session
 * expires ({@code sponge.zookeeper.session.timeout}, 10 s), and no task gets a free list meanwhile.
 * When the leader's host refuses connections to its port {@value #REFUSALS} checks in a row (the
 * process is gone: a live tracker listens, and a hung one would let the connection in), the
 * follower removes the leader's node and the next participant leads at once. A leader that cannot
 * be reached at all (its host down, a partition) is left to its session's expiry, and a leader that
 * finds its own node gone steps down ({@link #stillLeads}).
 */
final class SilentLeaderCheck {
  static final int REFUSALS = 2;
  private static final Logger LOG = LoggerFactory.getLogger(SilentLeaderCheck.class);

  private final CuratorFramework zookeeper;
  private final String latchPath;
  private final String self;
  private final int connectTimeoutMillis;
  private String suspect;
  private int refusals;

  SilentLeaderCheck(
      CuratorFramework zookeeper, String latchPath, String self, int connectTimeoutMillis) {
    this.zookeeper = zookeeper;
    this.latchPath = latchPath;
    this.self = self;
    this.connectTimeoutMillis = connectTimeoutMillis;
  }

  /**
   * On a follower: checks the leader, and removes its latch node after {@value #REFUSALS} refusals
   * in a row.
   *
   * @return whether this call removed the leader's node
   */
  boolean checkLeader() throws Exception {
    List<LatchParticipants.Participant> participants = LatchParticipants.read(zookeeper, latchPath);
    if (participants.isEmpty() || participants.get(0).id.equals(self)) {
      suspect = null;
      return false;
    }
    LatchParticipants.Participant leader = participants.get(0);
    if (!refuses(leader.id)) {
      suspect = null;
      return false;
    }
    if (!leader.path.equals(suspect)) {
      suspect = leader.path;
      refusals = 0;
    }
    if (++refusals < REFUSALS) {
      return false;
    }
    suspect = null;
    boolean removed = LatchParticipants.remove(zookeeper, leader);
    if (removed) {
      LOG.warn(
          "Tracker leader {} refused connections {} times in a row: its process is gone. Removed"
              + " its leader latch node {} so that a follower leads before its ZooKeeper session"
              + " expires",
          leader.id,
          REFUSALS,
          leader.path);
    }
    return removed;
  }

  /**
   * On the leader: false when its latch node is no longer the first (a follower removed it, taking
   * it for dead), so that it steps down instead of leading beside the new leader.
   */
  boolean stillLeads() throws Exception {
    List<LatchParticipants.Participant> participants = LatchParticipants.read(zookeeper, latchPath);
    return !participants.isEmpty() && participants.get(0).id.equals(self);
  }

  private boolean refuses(String endpoint) {
    ServerAddress address;
    try {
      address = ServerAddress.parse(endpoint);
    } catch (IllegalArgumentException e) {
      return false;
    }
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(address.host(), address.port()), connectTimeoutMillis);
      return false;
    } catch (ConnectException e) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
