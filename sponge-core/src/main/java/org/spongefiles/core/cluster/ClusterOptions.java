package org.spongefiles.core.cluster;

import java.time.Duration;
import java.util.List;
import org.spongefiles.core.config.ConfigOption;
import org.spongefiles.core.config.Importance;
import org.spongefiles.core.config.OptionSet;
import org.spongefiles.core.config.Validator;

/**
 * Keys for finding remote memory through the memory tracker and ZooKeeper, read by tasks, sponge
 * servers and trackers alike.
 */
public final class ClusterOptions implements OptionSet {

  public static final ConfigOption<String> ZOOKEEPER_QUORUM =
      ConfigOption.string("sponge.zookeeper.quorum", "")
          .importance(Importance.HIGH)
          .describe(
              "ZooKeeper connect string (zk1:2181,zk2:2181,zk3:2181). Sponge servers register there"
                  + " and trackers elect their leader there; tasks read it only when no tracker "
                  + "answers. Empty: no ZooKeeper.");

  public static final ConfigOption<String> ZOOKEEPER_ROOT =
      ConfigOption.string("sponge.zookeeper.root", "/spongefiles")
          .validate(Validator.nonBlank())
          .describe("ZooKeeper path under which SpongeFiles keeps its nodes.");

  public static final ConfigOption<Duration> ZOOKEEPER_SESSION_TIMEOUT =
      ConfigOption.duration("sponge.zookeeper.session.timeout", Duration.ofSeconds(10))
          .importance(Importance.LOW)
          .validate(Validator.durationBetween(Duration.ofMillis(500), Duration.ofMinutes(10)))
          .describe(
              "ZooKeeper session timeout of servers and trackers: how long after a crash a "
                  + "server leaves the registry and a dead leader is replaced.");

  public static final ConfigOption<Duration> ZOOKEEPER_CONNECT_TIMEOUT =
      ConfigOption.duration("sponge.zookeeper.connect.timeout", Duration.ofSeconds(5))
          .importance(Importance.LOW)
          .validate(Validator.durationBetween(Duration.ofMillis(100), Duration.ofMinutes(10)))
          .describe("How long to wait for a ZooKeeper connection before reporting it unavailable.");

  public static final ConfigOption<String> RACK =
      ConfigOption.string("sponge.rack", "")
          .describe(
              "This node's rack. Empty: Hadoop's topology mapping of the node's host name, as "
                  + "HDFS and YARN resolve it (the script of net.topology.script.file.name, or "
                  + "net.topology.node.switch.mapping.impl), else /default-rack. Remote memory is "
                  + "only borrowed within a rack.");

  public static final ConfigOption<List<String>> TRACKER_ADDRESSES =
      ConfigOption.list("sponge.tracker.addresses", List.of())
          .importance(Importance.HIGH)
          .describe(
              "The memory trackers (host:port), any of them; a tracker that is not the leader "
                  + "points to the leader. Empty: tasks use sponge.remote.servers.");

  public static final ConfigOption<Duration> TRACKER_TIMEOUT =
      ConfigOption.duration("sponge.tracker.timeout", Duration.ofMillis(500))
          .validate(Validator.durationBetween(Duration.ofMillis(10), Duration.ofMinutes(1)))
          .describe(
              "The longest a spill waits for a fresh free list from the tracker; past it the "
                  + "task uses the list it has, then the registered servers, then disk.");

  public static final ConfigOption<Duration> TRACKER_REFRESH =
      ConfigOption.duration("sponge.tracker.refresh", Duration.ofSeconds(2))
          .importance(Importance.LOW)
          .validate(Validator.durationBetween(Duration.ofMillis(10), Duration.ofHours(1)))
          .describe("Age at which a task asks the tracker for its rack's free list again.");

  public static final ConfigOption<Double> TRACKER_NEARLY_FULL =
      ConfigOption.decimal("sponge.tracker.nearly.full", 0.05)
          .importance(Importance.LOW)
          .validate(Validator.between(0.0, 1.0))
          .describe(
              "A server with less than this fraction of its pool free counts as nearly full: the "
                  + "tracker lists it last, and a task stops preferring it even if it already "
                  + "holds chunks there, while other servers of the rack have room.");

  public static final ConfigOption<Duration> REPORT_INTERVAL =
      ConfigOption.duration("sponge.tracker.report.interval", Duration.ofMillis(400))
          .importance(Importance.LOW)
          .validate(Validator.durationBetween(Duration.ofMillis(20), Duration.ofMinutes(1)))
          .describe(
              "Read by sponge servers and trackers alike: the least time between two free-space "
                  + "reports of a server to the leading tracker, and between two pushes of one "
                  + "rack's list to that rack's servers. A change reaches the rack's servers within "
                  + "about twice this.");

  public static final ConfigOption<Double> REPORT_THRESHOLD =
      ConfigOption.decimal("sponge.tracker.report.threshold", 0.01)
          .importance(Importance.LOW)
          .validate(Validator.between(0.0, 1.0))
          .describe(
              "A sponge server reports its free space to the leading tracker when it changed by "
                  + "this fraction of its pool (at least one chunk) since its last report, or "
                  + "crossed sponge.tracker.nearly.full or zero.");

  public static final ConfigOption<Duration> REPORT_KEEPALIVE =
      ConfigOption.duration("sponge.tracker.report.keepalive", Duration.ofSeconds(10))
          .importance(Importance.LOW)
          .validate(Validator.durationBetween(Duration.ofMillis(100), Duration.ofHours(1)))
          .describe(
              "A quiet sponge server reports this often, and the leader pushes every rack's list "
                  + "this often; either side closes a connection silent for three of these.");

  private static final List<ConfigOption<?>> ALL =
      List.of(
          ZOOKEEPER_QUORUM,
          ZOOKEEPER_ROOT,
          ZOOKEEPER_SESSION_TIMEOUT,
          ZOOKEEPER_CONNECT_TIMEOUT,
          RACK,
          TRACKER_ADDRESSES,
          TRACKER_TIMEOUT,
          TRACKER_REFRESH,
          TRACKER_NEARLY_FULL,
          REPORT_INTERVAL,
          REPORT_THRESHOLD,
          REPORT_KEEPALIVE);

  @Override
  public String title() {
    return "sponge-core: racks, the memory tracker and ZooKeeper";
  }

  @Override
  public String summary() {
    return "Read by tasks (to find rack-local servers with free memory), sponge servers (to "
        + "register) and trackers (to elect a leader and find servers).";
  }

  @Override
  public List<ConfigOption<?>> options() {
    return ALL;
  }

  @Override
  public int order() {
    return 1;
  }
}
