package org.spongefiles.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.pool.OwnerEntry;
import org.spongefiles.core.pool.SharedPool;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.RemoteSettings;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.tls.TlsContext;
import org.spongefiles.core.wire.ClusterSecret;

/**
 * The periodic sweep that frees chunks of dead owners: local owners by their lease files beside the
 * pool, and remote owners by asking the sponge server of their node, which checks the lease files
 * beside its own pool. A node whose server stays unreachable past the grace period is presumed down
 * and its owners' chunks are freed. Each sweep also recounts the quota ledger from the pool's owner
 * entries and deletes the files of ended leases.
 */
final class Reclaimer implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(Reclaimer.class);

  private final SharedPool pool;
  private final QuotaLedger ledger;
  private final ServerMetrics metrics;
  private final ClientIdentity self;
  private final ClusterSecret secret;
  private final TlsContext tls;
  private final RemoteSettings remote;
  private final long graceMillis;
  private final ChunkPins pins;
  private final Map<Integer, Long> unreachableSince = new HashMap<>();

  Reclaimer(
      SharedPool pool,
      QuotaLedger ledger,
      ServerMetrics metrics,
      ClientIdentity self,
      ClusterSecret secret,
      TlsContext tls,
      RemoteSettings remote,
      long graceMillis,
      ChunkPins pins) {
    this.pool = pool;
    this.ledger = ledger;
    this.metrics = metrics;
    this.self = self;
    this.tls = tls;
    this.secret = secret;
    this.remote = remote;
    this.graceMillis = graceMillis;
    this.pins = pins;
  }

  @Override
  public void run() {
    try {
      sweep();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Reclaim sweep of {} failed; the next sweep retries", pool.metadataFile(), e);
    }
  }

  /** One sweep; returns the chunks freed. */
  synchronized int sweep() throws IOException {
    int local = reclaim(pool.deadLocalOwners());
    if (local > 0) {
      LOG.info("Reclaimed {} chunk(s) of dead processes of this node", local);
      metrics.reclaimed.labelValues("local").inc(local);
    }
    int remoteFreed = 0;
    for (Map.Entry<Integer, List<OwnerEntry>> host : remoteOwnersByHost().entrySet()) {
      remoteFreed += sweepHost(host.getKey(), host.getValue());
    }
    if (remoteFreed > 0) {
      metrics.reclaimed.labelValues("remote").inc(remoteFreed);
    }
    ledger.rebuild(pool::owners);
    pool.leases().sweep();
    return local + remoteFreed;
  }

  /** Frees the chunks of {@code dead}; one with I/O in flight when its last I/O ends. */
  private int reclaim(List<OwnerEntry> dead) throws IOException {
    return pins.release(dead, OwnerEntry::chunk, entry -> true, pool::reclaim);
  }

  private Map<Integer, List<OwnerEntry>> remoteOwnersByHost() {
    Map<Integer, List<OwnerEntry>> byHost = new HashMap<>();
    for (OwnerEntry entry : pool.owners()) {
      if (!entry.owner().isLocal()) {
        byHost.computeIfAbsent(entry.owner().host(), h -> new ArrayList<>()).add(entry);
      }
    }
    unreachableSince.keySet().retainAll(byHost.keySet());
    return byHost;
  }

  private int sweepHost(int host, List<OwnerEntry> entries) throws IOException {
    String node = pool.hostName(host);
    boolean[] alive;
    try {
      alive = askLiveness(node, entries);
    } catch (IOException | IllegalArgumentException e) {
      long now = System.currentTimeMillis();
      long since = unreachableSince.computeIfAbsent(host, h -> now);
      if (now - since < graceMillis) {
        LOG.info(
            "Node server {} of {} chunk owner(s) unreachable for {} ms: {}",
            node,
            entries.size(),
            now - since,
            e.getMessage());
        return 0;
      }
      int freed = reclaim(entries);
      unreachableSince.remove(host);
      LOG.warn(
          "Reclaimed {} chunk(s) of owners on {}, unreachable for more than {} ms",
          freed,
          node,
          graceMillis);
      return freed;
    }
    unreachableSince.remove(host);
    List<OwnerEntry> dead = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      if (!alive[i]) {
        dead.add(entries.get(i));
      }
    }
    int freed = reclaim(dead);
    if (freed > 0) {
      LOG.info("Reclaimed {} chunk(s) of dead tasks on {}", freed, node);
    }
    return freed;
  }

  private boolean[] askLiveness(String node, List<OwnerEntry> entries) throws IOException {
    if (node == null || node.startsWith("?")) {
      throw new IOException("the owners' node has no sponge server to ask (" + node + ")");
    }
    long[] leases = new long[entries.size()];
    for (int i = 0; i < leases.length; i++) {
      leases[i] = entries.get(i).owner().lease();
    }
    try (RemoteConnection connection =
        RemoteConnection.open(
            ServerAddress.parse(node),
            self,
            secret,
            tls,
            remote.connectTimeout(),
            remote.ioTimeout(),
            new byte[0])) {
      return connection.liveness(leases);
    }
  }
}
