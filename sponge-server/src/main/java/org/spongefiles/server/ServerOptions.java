package org.spongefiles.server;

import java.time.Duration;
import java.util.List;
import org.spongefiles.core.config.ConfigOption;
import org.spongefiles.core.config.OptionSet;
import org.spongefiles.core.config.Validator;

/**
 * Keys of the sponge server daemon, set in sponge-site.xml. The server also reads sponge-core's
 * pool keys (sponge.pool.*, sponge.chunk.size), sponge.server.port, sponge.server.address,
 * sponge.node.id and the sponge.auth.* secret.
 */
public final class ServerOptions implements OptionSet {

  public static final ConfigOption<String> BIND_HOST =
      ConfigOption.string("sponge.server.bind.host", "0.0.0.0")
          .validate(Validator.nonBlank())
          .describe("Address the server listens on.");

  public static final ConfigOption<Integer> THREADS =
      ConfigOption.integer("sponge.server.threads", 2)
          .validate(Validator.between(1, 256))
          .describe("Netty event-loop threads serving connections.");

  public static final ConfigOption<Duration> RECLAIM_INTERVAL =
      ConfigOption.duration("sponge.server.reclaim.interval", Duration.ofSeconds(30))
          .validate(Validator.durationBetween(Duration.ofMillis(100), Duration.ofDays(1)))
          .describe(
              "How often the server frees the pool chunks of dead tasks: local ones by pid, remote"
                  + " ones by asking their node's server.");

  public static final ConfigOption<Duration> RECLAIM_GRACE =
      ConfigOption.duration("sponge.server.reclaim.grace", Duration.ofMinutes(5))
          .validate(Validator.durationBetween(Duration.ZERO, Duration.ofDays(7)))
          .describe(
              "How long the node server of a remote owner may stay unreachable before that "
                  + "owner's chunks are reclaimed anyway (its node is presumed down).");

  public static final ConfigOption<Long> QUOTA_PER_TASK =
      ConfigOption.bytes("sponge.server.quota.per.task", 0)
          .validate(Validator.bytesBetween(0, 1L << 50))
          .describe(
              "Most bytes one task may hold in this node's pool through the server, counted per "
                  + "session the server issued (a task's connections to a server share one); past "
                  + "it allocations are refused (QUOTA_EXCEEDED) and the task moves to another "
                  + "tier. 0 means no quota.");

  public static final ConfigOption<Long> QUOTA_PER_NODE =
      ConfigOption.bytes("sponge.server.quota.per.node", 0)
          .validate(Validator.bytesBetween(0, 1L << 50))
          .describe(
              "Most bytes the tasks of one other node may hold in this node's pool together, "
                  + "however many sessions they open; past it allocations are refused "
                  + "(QUOTA_EXCEEDED). 0 means no quota.");

  public static final ConfigOption<Integer> METRICS_PORT =
      ConfigOption.integer("sponge.server.metrics.port", 7072)
          .validate(Validator.between(-1, 65535))
          .describe(
              "Port of the HTTP endpoint serving Prometheus metrics (/metrics) and a health "
                  + "check (/-/healthy); 0 picks a free port, -1 turns it off.");

  public static final ConfigOption<Duration> SHUTDOWN_TIMEOUT =
      ConfigOption.duration("sponge.server.shutdown.timeout", Duration.ofSeconds(10))
          .validate(Validator.durationBetween(Duration.ZERO, Duration.ofMinutes(10)))
          .describe(
              "On shutdown, how long requests already received may take to finish before "
                  + "connections are closed.");

  public static final ConfigOption<Duration> HANDSHAKE_TIMEOUT =
      ConfigOption.duration("sponge.server.handshake.timeout", Duration.ofSeconds(5))
          .validate(Validator.durationBetween(Duration.ofMillis(100), Duration.ofMinutes(10)))
          .describe(
              "How long a new connection may take to authenticate (HELLO); a peer that has not by"
                  + " then is disconnected and counted as refused.");

  public static final ConfigOption<Duration> IDLE_TIMEOUT =
      ConfigOption.duration("sponge.server.idle.timeout", Duration.ofMinutes(10))
          .validate(Validator.durationBetween(Duration.ofMinutes(2), Duration.ofDays(1)))
          .describe(
              "An authenticated connection with no traffic either way for this long is closed; "
                  + "tasks open a new one when they need it (they reuse a connection only within a"
                  + " minute of its last use, so this is at least two minutes).");

  public static final ConfigOption<Integer> MAX_CONNECTIONS =
      ConfigOption.integer("sponge.server.max.connections", 4096)
          .validate(Validator.between(1, 1 << 20))
          .describe(
              "Most connections the server holds open; more are closed at once and counted as "
                  + "refused. Keep it well below the daemon's open-file limit (SPONGE_NOFILE).");

  public static final ConfigOption<Integer> MAX_CONNECTIONS_PER_ADDRESS =
      ConfigOption.integer("sponge.server.max.connections.per.address", 512)
          .validate(Validator.between(1, 1 << 20))
          .describe(
              "Most connections from one source address (one node's tasks together); more are "
                  + "closed at once and counted as refused.");

  public static final ConfigOption<Duration> REFUSAL_LOG_INTERVAL =
      ConfigOption.duration("sponge.server.refusal.log.interval", Duration.ofMinutes(1))
          .validate(Validator.durationBetween(Duration.ofSeconds(1), Duration.ofDays(1)))
          .describe(
              "Refused and failed unauthenticated peers are logged as one summary line per "
                  + "interval (counts by reason and the busiest addresses), not a line each.");

  public static final ConfigOption<Boolean> POOL_TOUCH =
      ConfigOption.bool("sponge.server.pool.touch", true)
          .describe(
              "At start, touch every page of the node's pool (without changing a byte), so the "
                  + "pool's memory is the server's: cgroup v1 charges a tmpfs page to the process "
                  + "that touches it first, and a task under YARN memory enforcement that did would "
                  + "pay for the node's pool under its own container's limit, and for the page "
                  + "faults. Takes about a second per GiB of pool.");

  private static final List<ConfigOption<?>> ALL =
      List.of(
          BIND_HOST,
          THREADS,
          RECLAIM_INTERVAL,
          RECLAIM_GRACE,
          QUOTA_PER_TASK,
          QUOTA_PER_NODE,
          METRICS_PORT,
          SHUTDOWN_TIMEOUT,
          HANDSHAKE_TIMEOUT,
          IDLE_TIMEOUT,
          MAX_CONNECTIONS,
          MAX_CONNECTIONS_PER_ADDRESS,
          REFUSAL_LOG_INTERVAL,
          POOL_TOUCH);

  @Override
  public String title() {
    return "sponge-server: the node daemon";
  }

  @Override
  public String summary() {
    return "Read by the sponge server from sponge-site.xml (and -D overrides on its command "
        + "line), besides the pool, port, node and secret keys of sponge-core.";
  }

  @Override
  public List<ConfigOption<?>> options() {
    return ALL;
  }

  @Override
  public int order() {
    return 10;
  }
}
