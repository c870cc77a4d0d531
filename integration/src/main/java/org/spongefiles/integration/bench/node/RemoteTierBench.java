package org.spongefiles.integration.bench.node;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.spongefiles.core.config.ByteSize;
import org.spongefiles.integration.bench.BenchReport;

/**
 * SpongeFiles' remote tier over a shaped rack link: for each link speed, a two-node rack ({@link
 * RackNetwork}, htb on both directions) with its ZooKeeper, tracker and a sponge server per node
 * ({@link RackServices}); a task on node 1 ({@link RemoteTransferProbe}) writes a SpongeFile of
 * {@code bench.remote.mib} MiB whose chunks all go to node 2's server and reads it back with
 * prefetch, every byte verified, {@code bench.remote.runs} times, each run beside the same bytes
 * streamed over a raw socket to a {@link LinkPeer} on node 2. One {@code BENCH
 * remote-<link>-write} and {@code remote-<link>-read} line per link speed: ratio = our bandwidth /
 * the raw socket's, medians of the runs (target for read-back with prefetch: >= 0.8).
 *
 * <p>Properties: {@code bench.remote.links} (1g,10g), {@code bench.remote.mib} (256), {@code
 * bench.remote.runs} (3), {@code bench.node.dir} (java.io.tmpdir, where the pools' mount points
 * and logs go).
 */
public final class RemoteTierBench {
  static final int LINK_PEER_PORT = 7075;
  private static final double MB = 1e6;

  private final List<String> links = NodeSweep.list("bench.remote.links", "1g,10g");
  private final int mib = Integer.getInteger("bench.remote.mib", 256);
  private final int runs = Integer.getInteger("bench.remote.runs", 3);
  private final Path dir =
      Path.of(System.getProperty("bench.node.dir", System.getProperty("java.io.tmpdir")));
  /** Markdown table rows, one per link speed and direction. */
  final List<String> rows = new ArrayList<>();

  public static void main(String[] args) throws Exception {
    BenchReport.machine();
    EmulatorSupport support = EmulatorSupport.probe();
    if (!support.has(EmulatorSupport.Piece.RACK_NETWORK)) {
      for (String line : support.missing()) {
        BenchReport.info("NOT RUN: %s", line);
      }
      BenchReport.info("NOT RUN: the remote-tier rows (they need the rack network)");
      return;
    }
    StaleResources.clean().forEach(line -> BenchReport.info("removed stale %s", line));
    new RemoteTierBench().run();
  }

  /** Measures every link speed. */
  void run() throws Exception {
    BenchReport.info(
        "remote tier: a %d MiB SpongeFile from node 1 to node 2's sponge server and back"
            + " (prefetch on), %d runs per link, beside a raw socket stream on the same link",
        mib, runs);
    int rack = 20;
    for (String link : links) {
      measure(++rack, link);
    }
  }

  private void measure(int rackNumber, String link) throws Exception {
    long bits = bitsPerSecond(link);
    try (RackNetwork rack = RackNetwork.create(rackNumber, 2, bits);
        RackServices services = RackServices.start(rack, ((long) mib << 20) + (64L << 20), dir);
        NodeProcess peer =
            NodeProcess.start(
                "link peer",
                rack.inNode(
                    2,
                    NodeProcess.java(
                        List.of("-Xmx64m"),
                        LinkPeer.class,
                        List.of(Integer.toString(LINK_PEER_PORT)))),
                services.dir.resolve("link-peer.log"))) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  Integer.toString(mib),
                  Integer.toString(runs),
                  rack.address(2) + ":" + LINK_PEER_PORT,
                  "sponge.node.id=" + services.nodeId(1),
                  "sponge.rack=" + services.rackName(),
                  "sponge.server.address=" + services.serverEndpoint(1),
                  "sponge.remote.servers=" + services.serverEndpoint(2)));
      List<String> lines =
          probe(
              rack.inNode(
                  1,
                  NodeProcess.java(
                      List.of("-Xmx512m", "-XX:MaxDirectMemorySize=256m"),
                      RemoteTransferProbe.class,
                      args)));
      report(link, bits, lines);
    }
  }

  private void report(String link, long bits, List<String> lines) {
    List<Double> rawWrite = new ArrayList<>();
    List<Double> rawRead = new ArrayList<>();
    List<Double> oursWrite = new ArrayList<>();
    List<Double> oursRead = new ArrayList<>();
    String result = "";
    for (String line : lines) {
      if (line.startsWith("RUN ")) {
        BenchReport.info("%s %s", link, line);
        rawWrite.add(field(line, "raw_write_s"));
        rawRead.add(field(line, "raw_read_s"));
        oursWrite.add(field(line, "ours_write_s"));
        oursRead.add(field(line, "ours_read_s"));
      } else if (line.startsWith("RESULT ")) {
        result = line.substring("RESULT ".length());
      }
    }
    long bytes = (long) mib << 20;
    if (field("RESULT " + result, "remote_bytes") != runs * (double) bytes) {
      throw new IllegalStateException(
          link + ": not every chunk went to node 2's server (" + result + ")");
    }
    double lineRate = bits / 8.0 / MB;
    row(link, "write", bytes, median(oursWrite), median(rawWrite), lineRate, ratios(rawWrite, oursWrite));
    row(link, "read", bytes, median(oursRead), median(rawRead), lineRate, ratios(rawRead, oursRead));
    BenchReport.info("%s task counters over %d runs: %s", link, runs, result);
  }

  private void row(
      String link,
      String direction,
      long bytes,
      double oursSeconds,
      double rawSeconds,
      double lineRate,
      List<Double> ratios) {
    double ours = bytes / oursSeconds / MB;
    double raw = bytes / rawSeconds / MB;
    double ratio = median(ratios);
    double min = ratios.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    double max = ratios.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    BenchReport.bench(
        "remote-" + link + "-" + direction,
        ratio,
        String.format(
            Locale.ROOT,
            "min=%.3f max=%.3f ours_mb_s=%.0f raw_socket_mb_s=%.0f line_mb_s=%.0f file=%s",
            min,
            max,
            ours,
            raw,
            lineRate,
            ByteSize.format(bytes)));
    rows.add(
        String.format(
            Locale.ROOT,
            "| %s | %s | %.0f | %.0f | %.0f | %.2f (%.2f-%.2f) |",
            link,
            direction.equals("read") ? "read back (prefetch)" : "write",
            lineRate,
            raw,
            ours,
            ratio,
            min,
            max));
  }

  /** Per run: our bandwidth / the raw socket's (= raw seconds / our seconds). */
  private static List<Double> ratios(List<Double> raw, List<Double> ours) {
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < raw.size(); i++) {
      ratios.add(raw.get(i) / ours.get(i));
    }
    return ratios;
  }

  private static List<String> probe(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        lines.add(line);
      }
    }
    int exit = process.waitFor();
    if (exit != 0) {
      throw new IOException("The remote transfer probe exited " + exit + ": " + lines);
    }
    return lines;
  }

  private static double field(String line, String name) {
    for (String part : line.split(" ")) {
      if (part.startsWith(name + "=")) {
        return Double.parseDouble(part.substring(name.length() + 1));
      }
    }
    throw new IllegalStateException("no " + name + " in '" + line + "'");
  }

  static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** {@code 1g} or {@code 10g} (or any {@code <n>m}/{@code <n>g}) in bits per second. */
  static long bitsPerSecond(String link) {
    String number = link.substring(0, link.length() - 1);
    switch (link.charAt(link.length() - 1)) {
      case 'g':
        return Long.parseLong(number) * 1_000_000_000L;
      case 'm':
        return Long.parseLong(number) * 1_000_000L;
      default:
        throw new IllegalArgumentException(
            "bench.remote.links: " + link + " (expected a speed such as 1g, 10g or 100m)");
    }
  }
}
