package org.spongefiles.it.cluster;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.spongefiles.emulator.HostCommand;
import org.spongefiles.emulator.cluster.ClusterNode;
import org.spongefiles.emulator.cluster.HadoopCluster;

/**
 * What a fault test reads from the cluster while a job runs: the sponge servers' and trackers'
 * metrics, and a fault injected on a thread of its own once its moment came.
 */
final class Faults {
  private static final Pattern SAMPLE =
      Pattern.compile("(?m)^(sponge_[a-z_]+)(\\{[^}]*\\})? ([0-9.E+-]+)$");

  private Faults() {}

  /**
   * The metrics of {@code node}'s daemon on {@code port}, {@code name{labels}} to value; empty when
   * it does not answer.
   */
  static Map<String, Double> metrics(HadoopCluster cluster, ClusterNode node, int port)
      throws IOException {
    Map<String, Double> samples = new HashMap<>();
    Matcher matcher =
        SAMPLE.matcher(cluster.fetch("http://" + node.host + ":" + port + "/metrics"));
    while (matcher.find()) {
      samples.put(
          matcher.group(1) + (matcher.group(2) == null ? "" : matcher.group(2)),
          Double.parseDouble(matcher.group(3)));
    }
    return samples;
  }

  /** Chunks of {@code node}'s pool held by tasks of its own node and of other nodes. */
  static long[] heldChunks(HadoopCluster cluster, ClusterNode node) throws IOException {
    Map<String, Double> server = metrics(cluster, node, HadoopCluster.SERVER_METRICS_PORT);
    return new long[] {
      server.getOrDefault("sponge_server_owned_chunks{owner=\"local\"}", 0.0).longValue(),
      server.getOrDefault("sponge_server_owned_chunks{owner=\"remote\"}", 0.0).longValue()
    };
  }

  /** What the servers hold, one {@code host=local/remote/free of total} entry per worker. */
  static String holdings(HadoopCluster cluster) throws IOException {
    StringBuilder text = new StringBuilder();
    for (ClusterNode worker : cluster.workers()) {
      Map<String, Double> server = metrics(cluster, worker, HadoopCluster.SERVER_METRICS_PORT);
      if (server.isEmpty()) {
        text.append(worker.host).append("=down ");
        continue;
      }
      text.append(
          String.format(
              "%s=%d/%d/%d of %d ",
              worker.host,
              server.getOrDefault("sponge_server_owned_chunks{owner=\"local\"}", -1.0).longValue(),
              server.getOrDefault("sponge_server_owned_chunks{owner=\"remote\"}", -1.0).longValue(),
              server.getOrDefault("sponge_server_pool_free_chunks", -1.0).longValue(),
              server.getOrDefault("sponge_server_pool_chunks", -1.0).longValue()));
    }
    return text.toString().trim();
  }

  /**
   * Whether every server answers and holds nothing: no chunk owned by a task of its node or of
   * another, every chunk of its pool free.
   */
  static boolean nothingHeld(HadoopCluster cluster) throws IOException {
    for (ClusterNode worker : cluster.workers()) {
      Map<String, Double> server = metrics(cluster, worker, HadoopCluster.SERVER_METRICS_PORT);
      Double free = server.get("sponge_server_pool_free_chunks");
      if (free == null
          || !free.equals(server.get("sponge_server_pool_chunks"))
          || server.getOrDefault("sponge_server_owned_chunks{owner=\"local\"}", 1.0) != 0
          || server.getOrDefault("sponge_server_owned_chunks{owner=\"remote\"}", 1.0) != 0) {
        return false;
      }
    }
    return true;
  }

  /** The tracker that says it leads, or null. */
  static ClusterNode leader(HadoopCluster cluster) throws IOException {
    for (ClusterNode tracker : cluster.trackers()) {
      Map<String, Double> samples = metrics(cluster, tracker, HadoopCluster.TRACKER_METRICS_PORT);
      if (samples.getOrDefault("sponge_tracker_leader", 0.0) == 1.0) {
        return tracker;
      }
    }
    return null;
  }

  /**
   * Slows process {@code pid} on a daemon thread: stopped (SIGSTOP) {@code stoppedMillis}, then
   * running (SIGCONT) {@code runningMillis}, until it ends.
   */
  static void throttle(long pid, long stoppedMillis, long runningMillis) {
    Thread throttle =
        new Thread(
            () -> {
              try {
                while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                  HostCommand.attempt("kill", "-STOP", Long.toString(pid));
                  Thread.sleep(stoppedMillis);
                  HostCommand.attempt("kill", "-CONT", Long.toString(pid));
                  Thread.sleep(runningMillis);
                }
              } catch (IOException e) {
                System.err.println("throttling pid " + pid + ": " + e);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "throttle-" + pid);
    throttle.setDaemon(true);
    throttle.start();
  }

  /** One step of a fault: polls for its moment, acts, says what it did; null while waiting. */
  interface Step {
    String attempt() throws Exception;
  }

  /**
   * A fault on a thread of its own: {@link Step#attempt} every 200 ms until it acts, from when the
   * job is submitted; {@link #outcome} after the job says what it did and when.
   */
  static final class Injector {
    private final Thread thread;
    private final long started = System.nanoTime();
    private volatile String done;
    private volatile long atMillis = -1;
    private volatile Exception failure;

    Injector(String name, Step step) {
      thread =
          new Thread(
              () -> {
                try {
                  while (!Thread.currentThread().isInterrupted()) {
                    String what = step.attempt();
                    if (what != null) {
                      atMillis = (System.nanoTime() - started) / 1_000_000;
                      done = what;
                      return;
                    }
                    Thread.sleep(200);
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } catch (Exception e) {
                  failure = e;
                }
              },
              name);
      thread.setDaemon(true);
      thread.start();
    }

    /** Stops waiting; what it did (fails if the step failed or never acted). */
    String outcome() throws Exception {
      thread.interrupt();
      thread.join();
      if (failure != null) {
        throw failure;
      }
      if (done == null) {
        throw new AssertionError(thread.getName() + ": the job ended before the fault's moment");
      }
      return done;
    }

    /** Milliseconds from submitting the job to the fault. */
    long atMillis() {
      return atMillis;
    }
  }
}
