package org.spongefiles.it.cluster;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.spongefiles.emulator.cluster.HadoopCluster;
import org.spongefiles.workloads.index.IndexInput;
import org.spongefiles.workloads.index.IndexReference;

/**
 * The workloads {@link ClusterBench} runs on the emulated cluster besides the median job, each
 * stock and ours alternately on the same cluster, each answer compared byte for byte with the other
 * variant's and with a reference computed without a job; each returns its {@code BENCH} line.
 */
final class ClusterWorkloads {
  static final String MEDIAN = "median";
  static final String INDEX = "index";
  static final String PIG_MR = "pig-mr";
  static final String PIG_TEZ = "pig-tez";
  static final List<String> ALL = List.of(MEDIAN, INDEX, PIG_MR, PIG_TEZ);
  static final int INDEX_REDUCERS = 4;

  private ClusterWorkloads() {}

  /**
   * Runs {@code workload} (not the median job, which ClusterBench runs itself), each job a phase of
   * {@code series} and a row of {@code record}.
   */
  static String run(
      String workload,
      HadoopCluster cluster,
      String disk,
      String load,
      long documents,
      long pages,
      int rounds,
      Path work,
      ClusterSeries series,
      ClusterTimes record)
      throws IOException, InterruptedException {
    switch (workload) {
      case INDEX:
        return index(cluster, disk, load, documents, rounds, work, series, record);
      case PIG_MR:
        return ClusterPig.run(cluster, false, disk, load, pages, rounds, work, series, record);
      case PIG_TEZ:
        return ClusterPig.run(cluster, true, disk, load, pages, rounds, work, series, record);
      default:
        throw new IllegalArgumentException("No workload " + workload + " (of " + ALL + ")");
    }
  }

  /**
   * The inverted index ({@link org.spongefiles.workloads.index.IndexJob}) of {@code documents}
   * documents with {@value #INDEX_REDUCERS} reducers, one of which gets most bytes: {@code BENCH
   * cluster-index-<disk>-<load> ...}.
   */
  static String index(
      HadoopCluster cluster,
      String disk,
      String load,
      long documents,
      int rounds,
      Path work,
      ClusterSeries series,
      ClusterTimes record)
      throws IOException, InterruptedException {
    IndexInput input = new IndexInput(documents, 28);
    Path dir = work.resolve("index-input");
    input.write(dir, 8);
    String expected = IndexReference.output(input, INDEX_REDUCERS);
    double hottest = IndexReference.hottestShare(input, INDEX_REDUCERS);
    Times times = new Times(INDEX, record);
    ClusterJob last = null;
    for (int round = 0; round < rounds; round++) {
      for (String mode : List.of(MedianClient.STOCK, MedianClient.OURS)) {
        series.phase(INDEX + " " + mode + " " + (round + 1));
        ClusterJob job =
            ClusterJob.submit(
                cluster,
                null,
                IndexClient.class,
                "/" + IndexClient.class.getSimpleName(),
                mode,
                dir,
                Integer.toString(INDEX_REDUCERS),
                work,
                List.of());
        same("index", mode, job.output, expected);
        times.add(mode, job.elapsedMillis);
        if (mode.equals(MedianClient.OURS)) {
          last = job;
        }
      }
    }
    return String.format(
        Locale.ROOT,
        "BENCH cluster-index-%s-%s %s documents=%d reducers=%d hottest_share=%.3f output_bytes=%d"
            + " rounds=%d %s",
        disk,
        load,
        times,
        documents,
        INDEX_REDUCERS,
        hottest,
        expected.length(),
        rounds,
        tiers(last));
  }

  /** Fails naming the workload, the variant and the first line that differs. */
  static void same(String workload, String mode, String actual, String expected) {
    if (actual.equals(expected)) {
      return;
    }
    String[] a = actual.split("\n", -1);
    String[] e = expected.split("\n", -1);
    int line = 0;
    while (line < Math.min(a.length, e.length) && a[line].equals(e[line])) {
      line++;
    }
    throw new AssertionError(
        String.format(
            Locale.ROOT,
            "The %s answer of %s differs from the reference at line %d: '%s', expected '%s'"
                + " (%d bytes, expected %d)",
            mode,
            workload,
            line + 1,
            line < a.length ? a[line] : "<end>",
            line < e.length ? e[line] : "<end>",
            actual.length(),
            expected.length()));
  }

  /** The SpongeFiles counters per tier of a job of ours. */
  static String tiers(ClusterJob job) {
    return String.format(
        Locale.ROOT,
        "pool_bytes=%d remote_bytes=%d disk_bytes=%d dfs_bytes=%d remote_unavailable=%d",
        job.counter("SpongeFiles", "POOL_BYTES_WRITTEN"),
        job.counter("SpongeFiles", "REMOTE_BYTES_WRITTEN"),
        job.counter("SpongeFiles", "DISK_BYTES_WRITTEN"),
        job.counter("SpongeFiles", "DFS_BYTES_WRITTEN"),
        job.counter("SpongeFiles", "REMOTE_UNAVAILABLE"));
  }

  /**
   * Job times per variant; prints the ratio of the medians, ours over stock. Each job is also
   * recorded in {@link ClusterTimes} when one is given.
   */
  static final class Times {
    private final List<Long> stock = new ArrayList<>();
    private final List<Long> ours = new ArrayList<>();
    private final String workload;
    private final ClusterTimes record;

    /** Times not recorded (a part of a workload's job, such as one Pig query). */
    Times() {
      this(null, null);
    }

    /** Times of {@code workload}'s jobs, each recorded in {@code record}. */
    Times(String workload, ClusterTimes record) {
      this.workload = workload;
      this.record = record;
    }

    void add(String mode, long millis) throws IOException {
      List<Long> times = mode.equals(MedianClient.STOCK) ? stock : ours;
      times.add(millis);
      if (record != null) {
        record.record(workload, mode, times.size(), millis);
      }
    }

    /** {@code ratio=<ours/stock>}, the medians' ratio alone. */
    String ratioField() {
      return String.format(
          Locale.ROOT,
          "ratio=%.3f",
          ClusterTimes.median(ours) / (double) ClusterTimes.median(stock));
    }

    @Override
    public String toString() {
      long stockMs = ClusterTimes.median(stock);
      long oursMs = ClusterTimes.median(ours);
      return String.format(
          Locale.ROOT,
          "ratio=%.3f stock_ms=%d ours_ms=%d",
          oursMs / (double) stockMs,
          stockMs,
          oursMs);
    }
  }
}
