package org.spongefiles.tracker;

import java.time.Duration;
import java.util.List;
import org.spongefiles.core.config.ConfigOption;
import org.spongefiles.core.config.OptionSet;
import org.spongefiles.core.config.Validator;

/**
 * Keys of the memory tracker daemon, set in sponge-site.xml. It also reads the sponge.zookeeper.*
 * keys, sponge.tracker.nearly.full, the sponge.tracker.report.* keys it shares with the servers,
 * sponge.node.id and the sponge.auth.* secret.
 */
public final class TrackerOptions implements OptionSet {

  public static final ConfigOption<String> BIND_HOST =
      ConfigOption.string("sponge.tracker.bind.host", "0.0.0.0")
          .validate(Validator.nonBlank())
          .describe("Address the tracker listens on.");

  public static final ConfigOption<Integer> PORT =
      ConfigOption.integer("sponge.tracker.port", 7073)
          .validate(Validator.between(0, 65535))
          .describe("Port the tracker listens on for tasks asking for free lists.");

  public static final ConfigOption<String> ADDRESS =
      ConfigOption.string("sponge.tracker.address", "")
          .describe(
              "This tracker as tasks reach it (host:port), its id in the leader election; empty "
                  + "means the node name and sponge.tracker.port.");

  public static final ConfigOption<Duration> LEADER_CHECK_INTERVAL =
      ConfigOption.duration("sponge.tracker.leader.check.interval", Duration.ofSeconds(1))
          .deprecatedKey("sponge.tracker.poll.interval")
          .validate(Validator.durationBetween(Duration.ofMillis(50), Duration.ofMinutes(10)))
          .describe(
              "How often a follower checks that the leader's process still listens (and the "
                  + "leader that it still leads); also the longest a new leader waits for every "
                  + "registered server's first report before it answers tasks.");

  public static final ConfigOption<Duration> LEADER_CHECK_TIMEOUT =
      ConfigOption.duration("sponge.tracker.leader.check.timeout", Duration.ofMillis(500))
          .deprecatedKey("sponge.tracker.poll.timeout")
          .validate(Validator.durationBetween(Duration.ofMillis(10), Duration.ofMinutes(1)))
          .describe(
              "Connect timeout of a follower's check of the leader: a leader that cannot be "
                  + "reached in this time is not counted as refusing.");

  public static final ConfigOption<Integer> METRICS_PORT =
      ConfigOption.integer("sponge.tracker.metrics.port", 7074)
          .validate(Validator.between(-1, 65535))
          .describe(
              "Port of the HTTP endpoint serving Prometheus metrics (/metrics) and a health "
                  + "check (/-/healthy); 0 picks a free port, -1 turns it off.");

  public static final ConfigOption<Duration> HANDSHAKE_TIMEOUT =
      ConfigOption.duration("sponge.tracker.handshake.timeout", Duration.ofSeconds(5))
          .validate(Validator.durationBetween(Duration.ofMillis(100), Duration.ofMinutes(10)))
          .describe(
              "How long a task's connection may take to authenticate (HELLO) before the tracker "
                  + "closes it.");

  private static final List<ConfigOption<?>> ALL =
      List.of(
          BIND_HOST,
          PORT,
          ADDRESS,
          LEADER_CHECK_INTERVAL,
          LEADER_CHECK_TIMEOUT,
          METRICS_PORT,
          HANDSHAKE_TIMEOUT);

  @Override
  public String title() {
    return "tracker: the memory tracker daemon";
  }

  @Override
  public String summary() {
    return "Read by the memory tracker from sponge-site.xml (and -D overrides on its command "
        + "line), besides the ZooKeeper and secret keys of sponge-core.";
  }

  @Override
  public List<ConfigOption<?>> options() {
    return ALL;
  }

  @Override
  public int order() {
    return 20;
  }
}
