package org.spongefiles.it.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.spongefiles.emulator.DiskClass;
import org.spongefiles.emulator.EmulatorSupport;
import org.spongefiles.emulator.StaleResources;
import org.spongefiles.emulator.cluster.ClusterSettings;
import org.spongefiles.emulator.cluster.HadoopCluster;
import org.spongefiles.testkit.data.NumbersGenerator;
import org.spongefiles.workloads.median.MedianReference;

/**
 * The full cluster run, as root: brings the emulated two-rack cluster up ({@link HadoopCluster},
 * every worker with its own disk of the given class and, under load, neighbours on it), runs the
 * median job stock and ours alternately, checks every answer against the generator's, prints one
 * line
 *
 * <pre>
 * BENCH cluster-median-&lt;disk&gt;-&lt;load&gt; ratio=&lt;ours/stock median job time&gt; stock_ms=... ours_ms=... &lt;SpongeFiles bytes per tier&gt;
 * </pre>
 *
 * and tears everything down. docs/benchmarks.md gives the command (profile {@code cluster} of
 * sponge-it).
 *
 * <pre>
 * ClusterBench &lt;disk: hdd|sata-ssd|nvme&gt; &lt;load: quiet|contended&gt; &lt;numbers&gt; &lt;rounds&gt; [&lt;workloads&gt; &lt;documents&gt; &lt;pages&gt;]
 * </pre>
 *
 * <p>{@code workloads} (default {@code median}) picks, comma-separated, what runs on the one
 * cluster: {@code median}, {@code index} (the inverted index of {@code documents} documents),
 * {@code pig-mr} and {@code pig-tez} (Pig's queries over {@code pages} pages, {@link
 * ClusterWorkloads}); one BENCH line each. The servers' metrics every second and the rack's {@code
 * bin/sponge status} at each job's start go to the directory of {@value #SERIES_PROPERTY} ({@link
 * ClusterSeries}); every job's time to the CSV of {@value #TIMES_PROPERTY}, with one table and one
 * plot per workload over all the runs recorded there ({@link ClusterTimes}).
 */
public final class ClusterBench {
  private static final long POOL_BYTES = 64L << 20;
  private static final long DISK_BYTES = 4L << 30;

  /** Where the run's {@link ClusterSeries} goes (default {@code cluster-series}). */
  static final String SERIES_PROPERTY = "sponge.cluster.series";

  /**
   * The CSV every run appends its job times to ({@link ClusterTimes}; default {@code
   * cluster-times.csv}); the table and the plots over all its runs go beside it.
   */
  static final String TIMES_PROPERTY = "sponge.cluster.times";

  private ClusterBench() {}

  public static void main(String[] args) throws Exception {
    List<String> workloads =
        args.length == 7 ? List.of(args[4].split(",")) : List.of(ClusterWorkloads.MEDIAN);
    if (!(args.length == 4 || args.length == 7)
        || !(args[1].equals("quiet") || args[1].equals("contended"))
        || !ClusterWorkloads.ALL.containsAll(workloads)) {
      System.err.println(
          "usage: ClusterBench <disk: hdd|sata-ssd|nvme> <load: quiet|contended> <numbers> <rounds>"
              + " [<workloads: "
              + String.join(",", ClusterWorkloads.ALL)
              + "> <documents> <pages>]");
      System.exit(2);
    }
    DiskClass disk = DiskClass.of(args[0]);
    boolean contended = args[1].equals("contended");
    long count = Long.parseLong(args[2]);
    int rounds = Integer.parseInt(args[3]);
    EmulatorSupport support = EmulatorSupport.probe();
    if (!support.missing().isEmpty()) {
      System.err.println("The emulated cluster cannot run here: " + support.missing());
      System.exit(2);
    }
    StaleResources.clean().forEach(line -> System.out.println("swept " + line));

    Path work = Files.createTempDirectory("sponge-cluster-bench");
    try {
      Path input = work.resolve("input");
      NumbersGenerator numbers = new NumbersGenerator(count, 8, NumbersGenerator.Shape.SKEWED, 28);
      numbers.write(input);
      long[] counts = new long[2];
      String expected = MedianReference.output(numbers, counts);
      ClusterSettings settings =
          ClusterJob.smokeCluster()
              .withRack(1, POOL_BYTES, 3072)
              .withRack(2, POOL_BYTES, 3072)
              .withDisks(disk, DISK_BYTES, contended ? 3 : 0);
      ClusterTimes record =
          new ClusterTimes(
              Path.of(System.getProperty(TIMES_PROPERTY, "cluster-times.csv")),
              disk.label,
              args[1]);
      ClusterWorkloads.Times times = new ClusterWorkloads.Times(ClusterWorkloads.MEDIAN, record);
      ClusterJob last = null;
      List<String> others = new ArrayList<>();
      Path seriesDir = Path.of(System.getProperty(SERIES_PROPERTY, "cluster-series"));
      try (HadoopCluster cluster = HadoopCluster.start(settings);
          ClusterSeries series = new ClusterSeries(cluster, seriesDir)) {
        for (String workload : workloads) {
          if (!workload.equals(ClusterWorkloads.MEDIAN)) {
            others.add(
                ClusterWorkloads.run(
                    workload,
                    cluster,
                    disk.label,
                    args[1],
                    Long.parseLong(args[5]),
                    Long.parseLong(args[6]),
                    rounds,
                    work,
                    series,
                    record));
          }
        }
        for (int round = 0;
            workloads.contains(ClusterWorkloads.MEDIAN) && round < rounds;
            round++) {
          for (String mode : List.of(MedianClient.STOCK, MedianClient.OURS)) {
            series.phase(ClusterWorkloads.MEDIAN + " " + mode + " " + (round + 1));
            ClusterJob job = ClusterJob.submit(cluster, mode, input, counts, work);
            if (!job.output.equals(expected)) {
              throw new AssertionError(
                  "The "
                      + mode
                      + " answer differs: "
                      + job.output
                      + " (expected "
                      + expected
                      + ")");
            }
            times.add(mode, job.elapsedMillis);
            if (mode.equals(MedianClient.OURS)) {
              last = job;
            }
          }
        }
      }
      others.forEach(System.out::println);
      System.out.println("series of the servers' metrics and the rack's status: " + seriesDir);
      System.out.println(
          "every run's job times (cluster-times.md, cluster-<workload>.png beside it): "
              + record.csv());
      System.out.println(ClusterTimes.report(record.csv()));
      if (last == null) {
        return;
      }
      System.out.printf(
          Locale.ROOT,
          "BENCH cluster-median-%s-%s %s numbers=%d rounds=%d"
              + " pool_bytes=%d remote_bytes=%d disk_bytes=%d remote_unavailable=%d%n",
          disk.label,
          args[1],
          times,
          count,
          rounds,
          last.counter("SpongeFiles", "POOL_BYTES_WRITTEN"),
          last.counter("SpongeFiles", "REMOTE_BYTES_WRITTEN"),
          last.counter("SpongeFiles", "DISK_BYTES_WRITTEN"),
          last.counter("SpongeFiles", "REMOTE_UNAVAILABLE"));
    } finally {
      StaleResources.deleteTree(work);
    }
  }
}
