package org.spongefiles.examples;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.commons.io.FileUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.testkit.data.NumbersGenerator;
import org.spongefiles.workloads.cluster.EmbeddedCluster;
import org.spongefiles.workloads.median.MedianRun;

/**
 * The main demo: the SpongeFiles paper's median job (one reducer finds the median of skewed
 * numbers) run twice in Hadoop's LocalJobRunner, with Hadoop's own merger and with SpongeFiles', on
 * a rack simulated in this JVM (an embedded ZooKeeper, a memory tracker, two sponge servers). The
 * reducer's heap is limited so that its shuffle spills; the report shows where the spilled bytes
 * went, checks both outputs against the median computed from the generator, and compares.
 *
 * <p>Each map output is larger than the share of the reducer's shuffle memory one output may take
 * (mapreduce.reduce.shuffle.memory.limit.percent), as for a straggling reducer whose partitions are
 * big: Hadoop's merger writes each to a local file and, past 2 x mapreduce.task.io.sort.factor - 1
 * files, merges files into bigger ones before the final merge; ours streams each into a SpongeFile
 * and merges them all in one round.
 *
 * <p>Properties: {@code demo.numbers} (4,000,000), {@code demo.maps} (24).
 */
public final class SpongeDemo {
  private static final long MIB = 1L << 20;
  private static final long REDUCE_HEAP = 64 * MIB;
  private static final long NODE_POOL = 16 * MIB;
  private static final long SERVER_POOL = 24 * MIB;
  private static final float MAP_OUTPUT_SHARE = 0.05f;

  private SpongeDemo() {}

  public static void main(String[] args) throws Exception {
    long numbers = Long.getLong("demo.numbers", 4_000_000);
    int maps = Integer.getInteger("demo.maps", 24);
    Path work = Files.createTempDirectory("sponge-demo-");
    try (EmbeddedCluster rack = EmbeddedCluster.start(2, SERVER_POOL)) {
      printSetup(rack, numbers, maps);
      NumbersGenerator generator =
          new NumbersGenerator(numbers, maps, NumbersGenerator.Shape.SKEWED, 2014);
      Path input = work.resolve("input");
      generator.write(input);
      String expected = NumbersGenerator.format(generator.lowerMedian(value -> true));
      long[] counts = {numbers};

      Configuration job = new Configuration();
      job.setLong("mapreduce.reduce.memory.totalbytes", REDUCE_HEAP);
      job.setFloat("mapreduce.reduce.shuffle.memory.limit.percent", MAP_OUTPUT_SHARE);
      job.setInt("mapreduce.local.map.tasks.maximum", 2);
      System.out.println("Run 1: Hadoop's own merger ...");
      MedianRun.Result stock =
          MedianRun.run(job, MedianRun.Merger.STOCK, input, work.resolve("stock"), counts);
      System.out.println("Run 2: the SpongeFiles merger ...");
      Configuration sponge = rack.taskConf(new Configuration(job), "reducer-node", NODE_POOL);
      MedianRun.Result ours =
          MedianRun.run(sponge, MedianRun.Merger.SPONGE, input, work.resolve("sponge"), counts);
      DemoReport.print(expected, stock, ours);
      if (!DemoReport.correct(expected, stock) || !DemoReport.correct(expected, ours)) {
        throw new AssertionError("a run did not compute the median " + expected);
      }
    } finally {
      FileUtils.deleteDirectory(work.toFile());
    }
  }

  private static void printSetup(EmbeddedCluster rack, long numbers, int maps) {
    System.out.println("SpongeFiles demo: a reducer that spills, on a rack simulated in this JVM");
    System.out.printf(Locale.ROOT, "  ZooKeeper      %s (embedded)%n", rack.zookeeper());
    System.out.printf(
        Locale.ROOT,
        "  memory tracker %s, leader of rack %s%n",
        rack.tracker().endpoint(),
        EmbeddedCluster.RACK);
    for (SpongeServer server : rack.servers()) {
      System.out.printf(
          Locale.ROOT,
          "  sponge server  %s lending a %d MiB pool%n",
          server.endpoint(),
          SERVER_POOL / MIB);
    }
    System.out.printf(
        Locale.ROOT,
        "  the reducer's node: a %d MiB shared pool, then the servers the tracker lists, then"
            + " local disk%n",
        NODE_POOL / MIB);
    System.out.printf(
        Locale.ROOT,
        "  the job: the median of %,d skewed numbers, %d map tasks, 1 reducer with a %d MiB"
            + " heap (mapreduce.reduce.memory.totalbytes), of whose shuffle memory one map output"
            + " may take %.0f%% (mapreduce.reduce.shuffle.memory.limit.percent)%n%n",
        numbers,
        maps,
        REDUCE_HEAP / MIB,
        MAP_OUTPUT_SHARE * 100);
  }

  /** Prints the two runs side by side. */
  static final class DemoReport {
    private DemoReport() {}

    static boolean correct(String expected, MedianRun.Result run) {
      return run.succeeded && run.output.startsWith(expected + "\t");
    }

    static void print(String expected, MedianRun.Result stock, MedianRun.Result ours) {
      System.out.println();
      row("", "Hadoop's merger", "SpongeFiles merger");
      row("median found", median(stock), median(ours));
      row(
          "correct (" + expected + ")",
          correct(expected, stock) ? "yes" : "NO",
          correct(expected, ours) ? "yes" : "NO");
      row("reduce phase", seconds(stock.reduceNanos), seconds(ours.reduceNanos));
      row(
          "reduce input (shuffled)",
          mib(stock.task(TaskCounter.REDUCE_SHUFFLE_BYTES)),
          mib(ours.task(TaskCounter.REDUCE_SHUFFLE_BYTES)));
      row(
          "records spilled by the reducer",
          String.format(Locale.ROOT, "%,d", stock.reduceSpilledRecords),
          String.format(Locale.ROOT, "%,d", ours.reduceSpilledRecords));
      row(
          "spill files in local dirs",
          Integer.toString(stock.spillFiles.size()),
          Integer.toString(ours.spillFiles.size()));
      row("bytes written to disk", mib(stock.reduceDiskBytes), mib(ours.reduceDiskBytes));
      System.out.println();
      System.out.println("Where the SpongeFiles merger's spills went (counter group SpongeFiles):");
      tier(ours, "POOL", "this node's shared pool");
      tier(ours, "REMOTE", "the rack's sponge servers");
      tier(ours, "DISK", "local disk");
      tier(ours, "DFS", "DFS");
      System.out.printf(
          Locale.ROOT,
          "  blocked writing %,d ms and reading %,d ms; map outputs kept in memory %d, streamed"
              + " to SpongeFiles %d; final merge of %d segments in one round%n",
          ours.sponge("BLOCKED_WRITE_MILLIS"),
          ours.sponge("BLOCKED_READ_MILLIS"),
          ours.sponge("MAP_OUTPUTS_IN_MEMORY"),
          ours.sponge("MAP_OUTPUTS_SPILLED"),
          ours.sponge("FINAL_MERGE_SEGMENTS"));
    }

    private static void tier(MedianRun.Result run, String tier, String where) {
      long bytes = run.sponge(tier + "_BYTES_WRITTEN");
      if (bytes > 0) {
        System.out.printf(
            Locale.ROOT,
            "  %-26s %9s in %,d chunks, read back %s%n",
            where,
            mib(bytes),
            run.sponge(tier + "_CHUNKS_WRITTEN"),
            mib(run.sponge(tier + "_BYTES_READ")));
      }
    }

    private static String median(MedianRun.Result run) {
      String output = run.output.trim();
      int tab = output.indexOf('\t');
      return tab < 0 ? "(none)" : output.substring(0, tab);
    }

    private static void row(String what, String stock, String ours) {
      System.out.printf(Locale.ROOT, "  %-32s %20s %20s%n", what, stock, ours);
    }

    private static String seconds(long nanos) {
      return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    private static String mib(long bytes) {
      return bytes < 0 ? "unknown" : String.format(Locale.ROOT, "%.1f MiB", bytes / (double) MIB);
    }
  }
}
